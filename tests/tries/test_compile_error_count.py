"""A compile failure with more errors says how many in words: "1 more error", "2 more errors"."""

from jqmagic.core.query.failures import compile_error


def _libjq_text(*names: str) -> str:
    lines = [f"jq: error: {name}/0 is not defined at <top-level>, line 1, column 1:" for name in names]
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
