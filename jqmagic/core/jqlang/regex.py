"""jq's regular expressions (Oniguruma, Perl_NT syntax) where Python's ``re`` means the same.

A pattern is translated piece by piece from a known subset (literals, escaped punctuation,
classes without nesting, groups, lookaround, quantifiers, ``\\d \\w \\s \\b`` and their
negations); anything else declines, and so does a subject on which the two engines could
disagree (``\\w``-like escapes or ``i`` on non-ASCII text, ``^ $`` on text with a newline).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any
from unicodedata import category

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import Compiled, many, singular
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import error, type_error
from jqmagic.core.jqlang.runtime import check
from jqmagic.core.jqlang.table import Table

BUILTINS = Table()

_CLASS_ESCAPES = frozenset("dDwWsSbB")
_SAFE_ESCAPES = frozenset("ntrfv") | _CLASS_ESCAPES
_FLAGS = frozenset("gix")  # n (no empty match) is an engine option Python lacks
_INTERVAL = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_LOOKAROUNDS = frozenset({"(?=", "(?!"})
_FOLDS_TO_ASCII = re.compile("[\u00df\u0130\u0131\u0149\u017f\u01f0\u1e96-\u1e9a\u1e9e\u212a"
                             "\ufb00-\ufb06]")
"""The characters whose case folding or case mapping holds an ASCII letter (sharp s, the
Kelvin sign, long s, dotted and dotless i, the ligatures ff fi fl st...; every one below
U+110000 in Unicode 14). Under ``i`` Oniguruma matches them to ASCII letters of a pattern
(``ss`` matches ``ß``), Python's ASCII-only ignore-case does not; with none of them in the
subject, an ASCII pattern matches the same text either way (other letters fold to
non-ASCII letters, which an ASCII pattern never names)."""


@dataclass
class Regex:
    compiled: re.Pattern
    global_: bool
    ascii_only: bool  # the subject must be ASCII for Python to agree (class escapes)
    anchored: bool  # ^ or $: a subject with a newline declines
    folds: bool = False  # i: a subject with a character whose case is ASCII declines
    letters: bool = False  # i of a non-ASCII pattern: every letter of a subject _simple
    source: tuple[str, str | None] = ("", None)  # the jq pattern and flags, for ORACLE
    suspicious: re.Pattern | None = None  # i of a letter of many folds (ß, ς): a subject
    # holding one of its forms (or its folding, "ss") may match otherwise in Oniguruma

    @cached_property
    def names(self) -> list[str | None]:
        """Each group's name (None for an unnamed group), in group order."""
        names: list[str | None] = [None] * self.compiled.groups
        for name, index in self.compiled.groupindex.items():
            names[index - 1] = name
        return names

    def _check(self, subject: Any) -> None:
        if type(subject) is not str:
            raise type_error(subject, "cannot be matched, as it is not a string")
        if not subject.isascii() and (self.ascii_only or self.folds and (
                not _simple(subject) if self.letters else _FOLDS_TO_ASCII.search(subject))):
            raise NotMine("a class escape on non-ASCII text, or i on a letter folding to ASCII")
        if self.anchored and "\n" in subject:
            raise NotMine("an anchor on text with a newline")
        if self.suspicious is not None and self.suspicious.search(subject):
            raise NotMine("a subject with a form of a letter Oniguruma folds otherwise")

    def test(self, subject: Any) -> bool:
        try:
            self._check(subject)
        except NotMine:  # (a type error under a waiting ?// is one too: no string to ask of)
            if ORACLE is None or type(subject) is not str:
                raise
            return ORACLE(*self.source, subject)  # a string Python's re may read otherwise
        return self.compiled.search(subject) is not None

    def matches(self, subject: Any) -> Iterator[re.Match]:
        self._check(subject)
        ascii_subject, search, at = subject.isascii(), self.compiled.search, 0
        while at <= len(subject) and (match := search(subject, at)) is not None:
            if match.start() == match.end():
                if not ascii_subject and self.global_:
                    raise NotMine("jq steps over an empty match by a byte, not a character")
                at = match.end() + 1  # as jq: past an empty match, whatever could follow
            else:
                at = match.end()
            yield match
            if not self.global_:
                return
            if at % 4096 == 0:
                check()


def regex(pattern: Any, flags: Any = None) -> Regex:
    """The :class:`Regex` of a jq pattern and flags; NotMine outside the shared subset."""
    if type(pattern) is not str:
        raise NotMine("a pattern that is not a string")
    if flags is not None and (type(flags) is not str or not set(flags) <= _FLAGS):
        raise NotMine(f"regex flags {flags!r}")
    return _regex(pattern, flags or "")


_REPEATED_GROUP = re.compile(r"\)[*+{]")
_VARIABLE = re.compile(r"(?<![\\(])[?*+]|\{\d*,\d*\}")  # a quantifier that backtracks
MAX_VARIABLE = 8


def _may_run_away(pattern: str) -> bool:
    """A group repeated after a quantifier or an alternation (``(a+)+``, ``(a|aa)*``), or
    many quantifiers in a row (``a?a?a?...aaa``): they may backtrack without end in Python's
    re, where Oniguruma stops at its retry limit with an error; such patterns are libjq's,
    so either engine says the same."""
    found = _REPEATED_GROUP.search(pattern)
    if found is not None and any(c in pattern[:found.start()] for c in "*+|{"):
        return True
    return len(_VARIABLE.findall(pattern)) > MAX_VARIABLE


ORACLE: Callable[[str, str | None, str], bool] | None = None
"""``test(pattern; flags)`` of a string as libjq answers it, where libjq is loaded (the
query worker sets it: :mod:`jqmagic.core.query.regexoracle`); None: such a string
declines the question."""


@lru_cache(maxsize=128)
def _regex(pattern: str, flags: str) -> Regex:
    source = (pattern, flags)
    if "x" in flags:
        pattern = _unextended(pattern)
    if _may_run_away(pattern):
        raise NotMine("a repeated group that may backtrack without end")
    text, escapes, anchored = _translate(pattern)
    letters = "i" in flags and not pattern.isascii()  # folded as Unicode: see _simple
    if letters and (escapes or "[" in pattern):
        raise NotMine("a non-ASCII pattern under i with a class")
    suspicious = _forms_of(pattern) if letters and not _simple(pattern) else None
    options = (0 if letters else re.ASCII) | (re.IGNORECASE if "i" in flags else 0)
    try:
        compiled = re.compile(text, options)
    except (re.error, OverflowError) as exc:
        raise NotMine("a pattern Python reads differently") from exc
    if escapes and not pattern.isascii():
        raise NotMine("a non-ASCII pattern with a class escape")
    return Regex(compiled, "g" in flags, escapes, anchored, "i" in flags, letters, source,
                 suspicious)


def _forms_of(pattern: str) -> re.Pattern:
    """The forms of the pattern's letters that Python and Oniguruma may fold apart under
    ``i`` (a letter of many folds, ``ß`` or ``ς``: its cases, its folding ``ss`` or ``σ``,
    found in a subject ignoring case), as one expression: a subject holding none matches
    alike in both (every other letter is :func:`_simple`); a letter unassigned in Python's
    Unicode declines the pattern."""
    special = {c for c in pattern if not c.isascii() and not _simple(c)}
    if any(category(c) == "Cn" for c in special):
        raise NotMine("a letter Python's Unicode does not know")
    forms = {form for c in special for form in (c, c.casefold(), c.lower(), c.upper(),
                                                   c.upper().lower(), c.lower().upper())}
    return re.compile("|".join(map(re.escape, sorted(forms, key=len, reverse=True))),
                      re.IGNORECASE)


def _simple(text: str) -> bool:
    """Whether each letter of ``text`` folds as Python's ignore-case matches it: its case
    folding one letter, its lower case (Oniguruma matches letters of one folding, Python
    of one lower case), none of :data:`_FOLDS_TO_ASCII`, and none unassigned in Python's
    Unicode (Oniguruma's may be newer). Not so: final sigma, the theta symbol, Cherokee,
    ligatures, letters folding to several."""
    return _FOLDS_TO_ASCII.search(text) is None and all(
        c.casefold() == c.lower() == c.upper().lower() and category(c) != "Cn"
        for c in text if not c.isascii())


_SPACE = " \t\n\r\v\f"


def _unextended(pattern: str) -> str:
    """``pattern`` under x (Oniguruma's extended form) without its white space and ``#``
    comments, which x drops outside classes; NotMine where the place of one changes the
    meaning: after ``(``, ``(?``, a quantifier (``a* ?`` is not ``a*?``) or inside braces."""
    out, i, in_class, in_brace = [], 0, False, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            start = i + 1 + pattern.startswith("^", i + 1)
            start += pattern.startswith("]", start)
            out.append(pattern[i:start])
            i, in_class = start, True
            continue
        elif c in _SPACE or c == "#":
            if in_brace or (out and out[-1][-1:] in "(?*+{}"):
                raise NotMine("x white space where it changes a group or a quantifier")
            i = pattern.find("\n", i) if c == "#" else i + 1
            i = len(pattern) if i < 0 else i
            continue
        else:
            in_brace = c == "{" or in_brace and c != "}"
        out.append(c)
        i += 1
    return "".join(out)


def _translate(pattern: str) -> tuple[str, bool, bool]:
    """Python's spelling of ``pattern``, whether it has class escapes, and anchors."""
    out, i, in_class = [], 0, False
    escapes = anchored = False
    groups: list[list] = []  # [opening, whether it holds text-matching pieces] around
    assertion = False  # the last piece matches no text: Oniguruma refuses to repeat it
    while i < len(pattern):
        c = pattern[i]
        if assertion and not in_class and c in "*+?{":
            raise NotMine("a repeated assertion")
        assertion = False
        if c == "\\":
            nxt = pattern[i + 1:i + 2]
            if not nxt or (nxt.isalnum() and nxt not in _SAFE_ESCAPES) or nxt.isspace():
                raise NotMine(f"regex escape \\{nxt}")
            escapes |= nxt in _CLASS_ESCAPES
            assertion = nxt in "bB" and not in_class
            if groups and not assertion:
                groups[-1][1] = True
            out.append(c + nxt)
            i += 2
            continue
        if in_class:
            if c == "[" or pattern.startswith("&&", i):
                raise NotMine("a nested or intersected class")
            in_class = c != "]"
        elif c == "[":
            start = i + 1 + pattern.startswith("^", i + 1)
            out.append(pattern[i:start])
            if pattern.startswith("]", start):  # a ] first is a literal
                out.append("\\]")
                start += 1
            i, in_class = start, True
            if groups:
                groups[-1][1] = True
            continue
        elif c == "(":
            opening, length = _group(pattern, i) if pattern.startswith("(?", i) else ("(", 1)
            groups.append([opening, False])
            out.append(opening)
            i += length
            continue
        elif c == ")" and groups:
            opening, holds_text = groups.pop()
            assertion = opening in _LOOKAROUNDS or not holds_text
            if groups and not assertion:
                groups[-1][1] = True
        elif c in "^$":
            anchored = assertion = True
        elif c == "{" and not _INTERVAL.match(pattern, i):
            raise NotMine("a brace that is not an interval")
        elif c not in "*+?{}|" and groups:
            groups[-1][1] = True
        out.append(c)
        i += 1
    if in_class:
        raise NotMine("an unclosed class")
    return "".join(out), escapes, anchored


def _group(pattern: str, i: int) -> tuple[str, int]:
    """Python's opening of the ``(?...`` group at ``i`` and its length in ``pattern``;
    NotMine for kinds that differ."""
    for opening in ("(?:", "(?=", "(?!", "(?>"):  # lookbehinds: Oniguruma is pickier
        if pattern.startswith(opening, i):
            return opening, len(opening)
    name = re.match(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>", pattern[i:])
    if name:
        return f"(?P<{name.group(1)}>", len(name.group(0))
    raise NotMine("a group kind Python reads differently")


# ---------------------------------------------------------------- jq's functions


def _groups(match: re.Match) -> list[tuple[int, str | None]]:
    """Each capture's offset and text as jq 1.8.2 reports them (-1 and None when it took
    no part): in a zero-width match, a capture that took part is empty, at the match's
    offset, whatever a lookahead caught."""
    count = match.re.groups
    if match.end() == match.start():
        return [(-1, None) if match.start(i) < 0 else (match.start(), "")
                for i in range(1, count + 1)]
    return [(match.start(i), match.group(i)) for i in range(1, count + 1)]


def _match_object(match: re.Match, names: list[str | None]) -> dict:
    captures = []
    for (offset, text), name in zip(_groups(match), names, strict=True):
        if not text:  # jq builds empty and missing captures with keys in another order
            captures.append({"offset": offset, "string": text, "length": 0, "name": name})
        else:
            captures.append({"offset": offset, "length": len(text), "string": text,
                             "name": name})
    text = match.group()
    return {"offset": match.start(), "length": len(text), "string": text,
            "captures": captures}


def _captured(match: re.Match, names: list[str | None]) -> dict:
    return {name: text for (_, text), name in zip(_groups(match), names, strict=True)
            if name is not None}


def _with_flags(pattern: Compiled, flags: Compiled | None, extra: str = ""):
    """The :class:`Regex` of every pattern and flags the arguments give (``extra``: flags
    the function adds, as ``scan`` adds ``g``)."""
    def regexes(v, e):
        for f in (flags.gen(v, e) if flags is not None else (None,)):
            if f is not None and type(f) is not str:
                raise NotMine("regex flags that are not a string")
            for p in pattern.gen(v, e):
                yield regex(p, ((f or "") + extra) or None)
    return regexes


def _register(name: str, make, pairs: bool = False) -> None:
    """``name/1`` and ``name/2``; ``pairs``: name/1 also takes ``[re, flags]`` (jq's
    ``test($val)``, ``match($val)``, ``capture($val)``)."""
    BUILTINS[(name, 1)] = (lambda p: make(*_split_pair(p))) if pairs else \
        (lambda p: make(p, None))
    BUILTINS[(name, 2)] = make


def _split_pair(p: Compiled) -> tuple[Compiled, Compiled | None]:
    if p.one is None:  # several patterns: strings only (a pair declines in regex())
        return p, None
    value = p.one
    return (singular(lambda v, e: _pattern_of(value(v, e))),
            singular(lambda v, e: _flags_of(value(v, e))))


def _pattern_of(x: Any) -> Any:
    if type(x) is str:
        return x
    if type(x) is list and x:
        return x[0]
    raise error(f"{jv.type_name(x)} not a string or array")


def _flags_of(x: Any) -> Any:
    return x[1] if type(x) is list and len(x) > 1 else None


def tester(pattern: str, flags: str | None = None) -> Callable[[Any], bool]:
    """``test(pattern; flags)`` for constant arguments: compiled once, and a string that
    needs no caution searched at once (anything else goes through :meth:`Regex.test`)."""
    r = regex(pattern, flags)
    if r.suspicious is not None:
        return r.test  # each subject looked at for forms of its letters
    search, anchored = r.compiled.search, r.anchored
    cautious = r.ascii_only or r.folds  # a subject that is not ASCII is checked

    def test(subject: Any) -> bool:
        if type(subject) is not str or (cautious and not subject.isascii()) or (
                anchored and "\n" in subject):
            return r.test(subject)
        return search(subject) is not None

    return test


def _test(p, f):
    if p.one and (f is None or f.one):  # one pattern: a plain function of the input
        pattern, flags = p.one, (f.one if f else lambda v, e: None)
        return singular(lambda v, e: regex(pattern(v, e), flags(v, e)).test(v))
    regexes = _with_flags(p, f)
    return many(lambda v, e: (any(True for _ in r.matches(v)) for r in regexes(v, e)))


def _match(p, f):
    regexes = _with_flags(p, f)
    return many(lambda v, e: (_match_object(m, r.names)
                              for r in regexes(v, e) for m in r.matches(v)))


def _capture(p, f):
    regexes = _with_flags(p, f)
    return many(lambda v, e: (_captured(m, r.names)
                              for r in regexes(v, e) for m in r.matches(v)))


def _scan(p, f):
    regexes = _with_flags(p, f, "g")

    def gen(v, e):
        for r in regexes(v, e):
            for m in r.matches(v):
                yield [text for _, text in _groups(m)] if r.compiled.groups else m.group()
    return many(gen)


def _split_at(v: str, r: Regex) -> list[str]:
    pieces, start = [], 0
    for m in r.matches(v):
        pieces.append(v[start:m.start()])
        start = m.end()
    pieces.append(v[start:])
    return pieces


def _splits(p, f):
    regexes = _with_flags(p, f, "g")
    return many(lambda v, e: (x for r in regexes(v, e) for x in _split_at(v, r)))


def _split2(p, f):
    regexes = _with_flags(p, f, "g")
    return many(lambda v, e: (_split_at(v, r) for r in regexes(v, e)))


def _substitute(p, replacement: Compiled, f, extra: str = "") -> Compiled:
    """jq 1.8.2's ``sub``: the i-th output of the replacement builds the i-th result (a
    result grows only while the replacement has that many outputs); no result: the input."""
    regexes, gen = _with_flags(p, f, extra), replacement.gen

    def sub(v, e):
        for r in regexes(v, e):
            names, results, start = r.names, [], 0
            for m in r.matches(v):
                gap = v[start:m.start()]
                for ix, text in enumerate(gen(_captured(m, names), e)):
                    if type(text) is not str:
                        raise NotMine("a replacement that is not a string")
                    if ix < len(results):
                        results[ix] += gap + text
                    else:
                        results.append(gap + text)
                start = m.end()
            if not results:
                yield v
            for result in results:
                yield result + v[start:]
    return many(sub)


_register("test", _test, pairs=True)
_register("match", _match, pairs=True)
_register("capture", _capture, pairs=True)
_register("scan", _scan)
_register("splits", _splits)
BUILTINS[("split", 2)] = _split2
BUILTINS[("sub", 2)] = lambda p, s: _substitute(p, s, None)
BUILTINS[("sub", 3)] = lambda p, s, f: _substitute(p, s, f)
BUILTINS[("gsub", 2)] = lambda p, s: _substitute(p, s, None, "g")
BUILTINS[("gsub", 3)] = lambda p, s, f: _substitute(p, s, f, "g")
