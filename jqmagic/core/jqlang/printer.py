"""jq's printed text of a result value (``jv_dump_string``), fast with orjson where it agrees."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.numbers import number_text
from jqmagic.core.jqlang.state import state

_FLOATISH = re.compile(rb"[0-9][.eE]")
_ZERO = re.compile(rb"(?<![0-9.eE+-])-?0(?![0-9.eE])")
# orjson's tokens, where its text of a double may differ from jq's: a string (kept whole:
# digits inside it are text) or a double
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|(-?[0-9]+(?:\.[0-9]+)?[eE][-+]?[0-9]+|-?[0-9]+\.[0-9]+)')


class Printer:
    """Prints values as ``jq`` with the given layout; ``literals`` says which number
    literals the inputs may hold (see :class:`.literals.Literals`)."""

    def __init__(self, literals: Any, indent: int = 2, compact: bool = False,
                 sort_keys: bool = False, tab: bool = False):
        self.literals = literals
        if tab and not compact:
            self.unit = "\t"
        else:
            self.unit = "" if compact or indent <= 0 else " " * min(indent, 7)
        self.sort_keys = sort_keys
        option = orjson.OPT_SORT_KEYS if sort_keys else 0
        if self.unit == "  ":
            option |= orjson.OPT_INDENT_2
        self.option = option if self.unit in ("", "  ") else None

    def text(self, value: Any) -> str:
        """The text jq prints for ``value``; NotMine where it might differ."""
        return self.data(value).decode()

    def data(self, value: Any) -> bytes:
        """:meth:`text` as UTF-8 bytes, as results leave the worker."""
        if type(value) is int and value:  # printed as written, whatever its size
            return str(value).encode()
        data = None
        if self.option is not None:
            try:
                data = orjson.dumps(value, option=self.option)
            except TypeError:  # an integer past 64 bits
                data = None
        if data is None:
            return self._precise(value).encode()
        if _FLOATISH.search(data):  # doubles: orjson's text is jq's, but for a few forms
            precise, rewrite = self._doubles(data)
            if precise:
                return self._precise(value).encode()
            if rewrite:
                data = _TOKEN.sub(self._jq_number, data)
        if b"\x7f" in data:
            data = data.replace(b"\x7f", b"\\u007f")
        if self._may_print_negative_zero(data):
            raise NotMine("a -0 literal may be printed")
        return data

    def data_many(self, values: list[Any]) -> list[bytes]:
        """:meth:`data` of each value, orjson's texts checked once for the whole batch (a
        batch that might print otherwise than jq is printed value by value)."""
        option = self.option
        if option is None:
            return [self.data(v) for v in values]
        try:
            texts = [str(v).encode() if type(v) is int and v else orjson.dumps(v, option=option)
                     for v in values]
        except TypeError:  # an integer past 64 bits
            return [self.data(v) for v in values]
        whole = b"\n".join(texts)
        if _FLOATISH.search(whole) and any(self._doubles(whole)):
            return [self.data(v) for v in values]
        if b"\x7f" in whole or self._may_print_negative_zero(whole):
            return [self.data(v) for v in values]
        return texts

    def _doubles(self, data: bytes) -> tuple[bool, bool]:
        """Whether orjson's ``data``, which holds doubles, must be printed again value by
        value (a literal's text may be wanted and unknown, or a double computed in this run
        may look like a literal: only the value itself tells), and whether its double
        tokens must be written again as jq writes them."""
        literals = self.literals
        facts, texts = literals.facts, literals.odd_texts
        if texts is None and ("odd" in facts or "long" in facts):
            return True, True
        if state.held and (texts or b"-0.0" in data):
            return True, True
        return False, bool(texts) or _may_differ(data) or ("zero" in facts and b"0.0" in data)

    def _may_print_negative_zero(self, data: bytes) -> bool:
        """Whether ``data`` holds a zero that may stand for a ``-0`` literal (the facts are
        asked first once known, else only when a zero is there: learning them may wait)."""
        literals = self.literals
        if literals.settled:
            return literals.negative_zero and _ZERO.search(data) is not None
        return _ZERO.search(data) is not None and literals.negative_zero

    def _jq_number(self, match: re.Match) -> bytes:
        """A string token as it is; a double's as jq prints it (orjson writes the shortest
        text that reads back as the same double, so ``float`` of it is the value; no
        double computed in this run is among them: :meth:`_doubles`)."""
        number = match[1]
        if number is None:
            return match[0]
        return number_text(float(number), self.literals).encode()

    def _precise(self, value: Any) -> str:
        out: list[str] = []
        self._write(value, 0, out)
        return "".join(out)

    def _write(self, v: Any, level: int, out: list[str]) -> None:
        t = type(v)
        if t is str:
            out.append(json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f"))
        elif v is None or t is bool:
            out.append("null" if v is None else "true" if v else "false")
        elif t is int or t is float:
            out.append(number_text(v, self.literals))
        elif not v:
            out.append("[]" if t is list else "{}")
        else:
            self._container(v, level, out)

    def _container(self, v: list | dict, level: int, out: list[str]) -> None:
        unit, is_list = self.unit, type(v) is list
        inner = "\n" + unit * (level + 1) if unit else ""
        out.append("[" if is_list else "{")
        if is_list:
            items = [(None, x) for x in v]
        else:
            keys = sorted(v) if self.sort_keys else list(v)
            items = [(k, v[k]) for k in keys]
        colon = ": " if unit else ":"
        for i, (key, item) in enumerate(items):
            out.append(("," if i else "") + inner)
            if key is not None:
                out.append(json.dumps(key, ensure_ascii=False).replace("\x7f", "\\u007f") + colon)
            self._write(item, level + 1, out)
        out.append(("\n" + unit * level if unit else "") + ("]" if is_list else "}"))


def _may_differ(data: bytes) -> bool:
    """Whether orjson's text may write a double otherwise than jq: with an exponent, below
    1e-4, whole past 2^53, or -0.0 (substring tests on the digits made zeros: a regular
    expression costs more than the printing it saves; a false alarm is only slower)."""
    zeros = data.translate(_DIGITS_AS_ZERO)
    return (b"0e" in zeros or b"0E" in zeros or b"0.0000" in data or b"-0.0" in data
            or b"0000000000000000." in zeros)


def fresh_value(value: Any, text: str) -> Any:
    """The value as the worker path gives it (``json.loads`` of jq's text): new
    containers, and doubles printed as integers read back as ints."""
    if type(value) in (list, dict, float):
        return json.loads(text)
    return value


def tojson(v: Any) -> str:
    """jq's compact text of ``v`` (numbers as the inputs' literals allow)."""
    t = type(v)
    if t is int or t is float:
        return number_text(v, state.literals)
    printer = state.compact_printer
    if printer is None or printer.literals is not state.literals:
        printer = state.compact_printer = Printer(state.literals, compact=True)
    return printer.text(v)
