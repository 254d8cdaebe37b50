"""No source given: %inspect (shape) has no null input, so its hint offers none (it said
'or use null input (-n)', an option %inspect does not have); %jq's offers -n, and each face
says it in its own words."""

from __future__ import annotations

import pytest

import jqmagic
from jqmagic import JqMagicError


def test_shape_offers_no_null_input():
    with pytest.raises(JqMagicError) as caught:
        jqmagic.shape()
    assert caught.value.code == "AMBIGUOUS_SOURCE"
    assert caught.value.hint == ("Name a source (a file, inline JSON text, a value, a command "
                                 "or a payload).")


def test_query_offers_it_in_each_faces_words():
    with pytest.raises(JqMagicError) as caught:
        jqmagic.query(".")
    assert caught.value.hint.endswith(", or use null input (-n).")
    assert caught.value.to_dict("agent")["hint"].endswith(
        ", or use null input (null_input=true).")


def test_inspect_in_a_shell(ip):
    from IPython.core.error import UsageError

    with pytest.raises(UsageError) as caught:
        ip.run_line_magic("inspect", "")
    assert "-n" not in str(caught.value) and "No input was given" in str(caught.value)
