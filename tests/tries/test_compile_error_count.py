"""Counts said in words ("1 more error", "2 results", never "(s)"), and the hint of
`input` past the last input."""

from jqmagic.core.query.failures import compile_error


def _libjq_text(*names: str) -> str:
    lines = [f"jq: error: {name}/0 is not defined at <top-level>, line 1, column 1:"
             for name in names]
    return "\n".join(lines + [f"jq: {len(names)} compile errors"])


def test_one_more_error_is_singular():
    message = compile_error(_libjq_text("foo", "bar"), "foo | bar").message
    assert message.endswith("foo/0 is not defined (and 1 more error)")


def test_two_more_errors_are_plural():
    message = compile_error(_libjq_text("foo", "bar", "baz"), "foo | bar | baz").message
    assert message.endswith("(and 2 more errors)")
    assert "(s)" not in message


def test_a_single_error_says_no_more():
    assert "more" not in compile_error(_libjq_text("foo"), "foo").message


def test_a_run_error_counts_results_in_words():
    from jqmagic.core.query.failures import run_error

    assert "(after 1 result)" in run_error("x", 1).message
    assert "(2 results in all)" in run_error("x", 2, stopped=False).message


def test_input_past_the_last_says_so():
    from jqmagic.core.query.failures import run_error

    assert "`inputs`" in run_error("break", 0).hint


def test_a_query_results_repr_counts_in_words():
    import jqmagic

    assert repr(jqmagic.query(".[]", text="[1]")).endswith(": 1 result>")


def test_inputs_that_failed_are_counted_in_words():
    from jqmagic.core.query.libjqinput import failed_inputs

    assert str(failed_inputs(["x", "y"])) == "x (and 1 more input failed)"
    assert str(failed_inputs(["x", "y", "z"])) == "x (and 2 more inputs failed)"
    assert str(failed_inputs(["x"])) == "x"
