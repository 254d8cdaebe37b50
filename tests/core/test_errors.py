"""The one exception family (core/errors.py): stable codes, each face's rendering, the
worker's wire form, carets under a column."""

from __future__ import annotations

import pytest

from jqmagic.core.errors import CODES, JqMagicError, caret_excerpt, too_deep
from jqmagic.core.words import term


def test_only_known_codes():
    assert "PATCH_CONFLICT" in CODES
    with pytest.raises(ValueError):
        JqMagicError("NO_SUCH_CODE", "x")


def test_each_face_reads_the_terms_in_its_words():
    error = JqMagicError("TIMEOUT", f"Stopped after 1 s ({term('timeout')}).",
                         f"Raise {term('timeout')}.", "    detail")
    assert str(error) == "TIMEOUT: Stopped after 1 s (--timeout)."
    assert error.hint == "Raise --timeout." and "⟨" in error.raw_hint
    assert error.render("terminal") == ("TIMEOUT: Stopped after 1 s (--timeout).\n    detail\n"
                                        "hint: Raise --timeout.")
    assert error.to_dict("agent") == {
        "success": False, "error": "Stopped after 1 s (the timeout parameter).",
        "error_code": "TIMEOUT", "hint": "Raise the timeout parameter.", "detail": "    detail"}
    assert "hint" not in JqMagicError("TIMEOUT", "x").to_dict()


def test_the_wire_form_raises_the_same_error_again():
    error = JqMagicError("QUERY_ERROR", f"x {term('query')}", "h", "d")
    error.exit_code = 5
    again = JqMagicError.from_wire(error.to_wire())
    assert (again.code, again.raw_message, again.raw_hint, again.detail, again.exit_code) == (
        "QUERY_ERROR", error.raw_message, "h", "d", 5)


def test_a_caret_points_at_the_column_of_a_long_line_cut_around_it():
    assert caret_excerpt('{"a": tru}', 1, 7) == '    {"a": tru}\n          ^'
    line = "x" * 500 + "!" + "y" * 500
    shown, caret = caret_excerpt(line, 1, 501, width=20).splitlines()
    assert shown.startswith("    ...") and shown.endswith("...") and len(shown) == 30
    assert shown[caret.index("^")] == "!"
    assert caret_excerpt("a", 3, 1) == ""


def test_too_deep_is_too_large_with_the_hint_given():
    error = too_deep("The value", "Query a part.")
    assert error.code == "TOO_LARGE" and error.hint == "Query a part."
