"""Two regex flags against libjq's Oniguruma: ``i`` over non-ASCII text (letters of many
scripts, among them every one whose case folds to ASCII: ``ß`` is ``ss`` to Oniguruma, the
Kelvin sign ``k``) and ``x`` (white space and ``#`` comments in the pattern, in every
place): each answer equals libjq's or the fast path declines, and the usual ones answer."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.core.jqlang.oracle import fast, libjq

FOLDING = ("\u00df\u0130\u0131\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a\u1e9e"
           "\u212a\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06")
OTHERS = "éÉçÇΓγΣσςИиñÑøØæÆ李ϑθΐᏣꮳ"
PIECES = ["a", "s", "ss", "k", "i", "st", "ff", "[a-z]", "[^a-z]", "[sk]", ".", "S", "K", "I",
          "^", "$", "x", "é", "ИВ", "σ", "Σ", "ǅ", "ω", "ç", "θ", "Ꮳ", "ß", "ς", "ﬁ", "ẞ",
          "ſ", "ı", "ϑ"]
patterns = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(["", "*", "+", "?"]))
                    .map("".join), min_size=1, max_size=4).map("".join)
subjects = st.text(alphabet="askistfxSKI " + FOLDING + OTHERS, max_size=8)
CALLS = ['test($re; "i")', '[match($re; "gi") | [.offset, .length, .string]]',
         'sub($re; "<\\(.)>"; "gi")', '[scan($re; "i")]']


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern=patterns, subject=subjects, call=st.sampled_from(CALLS))
def test_ignore_case_over_non_ascii_text_equals_libjq_or_declines(pattern, subject, call):
    args = {"re": pattern}
    got = fast(call, json.dumps(subject), args, compact=True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got.text == libjq(call, json.dumps(subject), args, compact=True).text


def test_text_of_other_scripts_is_answered_under_i():
    for subject in ["Γιώργου", "ИВАН", "chloé", "zoë42", "李雷"]:
        text = json.dumps(subject)
        for call in CALLS:
            for pattern in ("^[a-z]*o", "иван|É|ΓΙ"):
                got = fast(call, text, {"re": pattern}, compact=True)
                assert got is not None, (call, subject, pattern)
                assert got.text == libjq(call, text, {"re": pattern}, compact=True).text


def test_letters_folding_to_ascii_under_i_are_libjqs_to_answer(monkeypatch):
    """Python folds them otherwise: declined without the oracle, libjq's answer with it."""
    from jqmagic.core.jqlang import regex
    from jqmagic.core.query import regexoracle

    program = 'test("s|k|i|f|t|n|j|h|w|y|a"; "i")'
    for oracle in (None, regexoracle.test):
        monkeypatch.setattr(regex, "ORACLE", oracle)
        for letter in FOLDING:
            got = fast(program, json.dumps(letter))
            if oracle is None:
                assert got is None, letter
            else:
                assert got is not None and got.text == libjq(program, json.dumps(letter)).text


X_PIECES = ["a", "b", " ", "  ", "#c\n", "\\ ", "[ a]", "[^ ]", "(?:", "(", ")", "*", "+",
            "?", "{2}", "{1, 2}", "|", "\\#", "\n", "\t"]
x_patterns = st.lists(st.sampled_from(X_PIECES), min_size=1, max_size=6).map("".join)
x_subjects = st.text(alphabet="ab #\n{},12", max_size=8)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern=x_patterns, subject=x_subjects, flag=st.sampled_from(["x", "gx", "ix"]),
       call=st.sampled_from(['test($re; $f)', '[match($re; $f) | [.offset, .length]]',
                             'sub($re; "<\\(.)>"; $f)']))
def test_extended_patterns_equal_libjq_or_decline(pattern, subject, flag, call):
    args = {"re": pattern, "f": flag}
    got = fast(call, json.dumps(subject), args, compact=True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got.text == libjq(call, json.dumps(subject), args, compact=True).text


def test_an_extended_pattern_with_comments_is_answered():
    program = 'test("^ fix | typo  # either word\n"; "x")'
    for subject in ['"fix it"', '"a typo"', '"no"']:
        got = fast(program, subject)
        assert got is not None and got.text == libjq(program, subject).text


def test_a_non_ascii_pattern_under_i_declines_letters_python_folds_otherwise():
    """``ss`` matches ``ß`` to Oniguruma, not to Python; final sigma and Cherokee fold
    otherwise than they lower-case: declined, or answered as libjq does."""
    for pattern, subject in [("éss", "éß"), ("éss", "ÉSS"), ("ést", "éﬆ"), ("σ", "ς"),
                             ("ᏣK", "ꮳk"), ("ék", "éK")]:
        for call in CALLS:
            got = fast(call, json.dumps(subject), {"re": pattern}, compact=True)
            if got is not None:
                assert got.text == libjq(call, json.dumps(subject), {"re": pattern},
                                         compact=True).text, (pattern, subject, call)


def test_a_subject_python_folds_otherwise_is_asked_of_libjq(monkeypatch):
    """``test`` of a string whose letters Python's re may fold otherwise (final sigma, ß,
    a ligature, the Kelvin sign) is answered by libjq (``regex.ORACLE``, set where the
    query worker loads libjq), not by declining the whole question; without the oracle,
    the question declines."""
    from jqmagic.core.jqlang import regex
    from jqmagic.core.query import regexoracle

    program = '[.[] | test("Σ"; "i"), test("SS"; "ix"), test("^ff"; "i"), test("k")]'
    text = json.dumps(["Γιώργος", "straße", "\ufb00x", "\u212a", "plain"])
    monkeypatch.setattr(regex, "ORACLE", None)
    assert fast(program, text, {}, compact=True) is None
    monkeypatch.setattr(regex, "ORACLE", regexoracle.test)
    got = fast(program, text, {}, compact=True)
    assert got is not None and got.text == libjq(program, text, {}, compact=True).text


def test_a_pattern_with_a_letter_of_many_folds_is_decided_per_subject():
    """``straße`` or ``ς`` under ``i`` (issue 53): ``test`` asks libjq of the subjects that
    hold a form of the letter (``STRASSE``, ``σ``) and Python's re of the others; a
    ``match`` answers where no subject holds one, and declines where one does."""
    subjects = ["Straße", "STRASSE", "strasse", "Strase", "bob", "ΣΊΣΥΦΟΣ", "σίσυφος", "ﬁnn"]
    for pattern in ["straße", "^str|aße", "ς", "ﬁ", "éß"]:
        program = f'[.[] | test("{pattern}"; "i")]'
        got = fast(program, json.dumps(subjects), {}, compact=True)
        assert got is not None, pattern
        assert got.text == libjq(program, json.dumps(subjects), {}, compact=True).text
    program = '[.[] | match("straße"; "gi") | .string]'
    plain = json.dumps(["bob", "Strase", "Alice"])
    assert fast(program, plain, {}, compact=True) == libjq(program, plain, {}, compact=True)
    assert fast(program, json.dumps(subjects), {}, compact=True) is None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern=patterns, items=st.lists(subjects, min_size=1, max_size=6),
       flags=st.sampled_from(["i", "x", "", "ix", "g"]))
def test_literal_patterns_of_a_fused_select_equal_libjq_or_decline(pattern, items, flags):
    """``select(strings | test("re"; "flags"))`` in a fused loop: the pattern compiled once
    (:func:`.regex.tester`), each subject searched at once or checked first."""
    program = f"[.[] | select(strings | test({json.dumps(pattern)}; {json.dumps(flags)}))]"
    document = json.dumps([*items, 1, None])
    got = fast(program, document, compact=True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got == libjq(program, document, compact=True)
