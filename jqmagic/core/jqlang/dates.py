"""jq 1.8.2's UTC dates (``gmtime``, ``mktime``, ``strftime``, ``strptime``, ``todate``,
``fromdate``) where the answer does not hang on the locale or the time zone: the C
locale's names, fixed-width fields; anything else (``%c``, ``%Z``, ``localtime``,
``now``) is NotMine."""

from __future__ import annotations

import calendar
import datetime
import math
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import repeat
from operator import getitem
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.builtins import over_arg
from jqmagic.core.jqlang.compiled import singular
from jqmagic.core.jqlang.errors import JqError, NotMine
from jqmagic.core.jqlang.messages import error
from jqmagic.core.jqlang.runtime import check
from jqmagic.core.jqlang.table import Table, direct

BUILTINS = Table()

_DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_INT = 2**31


_EPOCH_DAY = datetime.date(1970, 1, 1).toordinal()


def _broken_down(seconds: int) -> list[int]:
    """``gmtime_r``: [year, month 0-11, day, hour, minute, second, weekday, yearday]."""
    year, month, day, weekday, yearday = _day(seconds // 86400)
    return [year, month, day, *_clock(seconds % 86400), weekday, yearday]


@lru_cache(maxsize=1024)
def _day(days: int) -> tuple[int, int, int, int, int]:
    """The day ``days`` after 1970-01-01: year, month 0-11, day, weekday, yearday (a column
    of times holds few days: each is worked out once)."""
    try:
        day = datetime.date.fromordinal(_EPOCH_DAY + days)
    except (ValueError, OverflowError) as exc:
        raise NotMine("a date outside years 1-9999") from exc
    return (day.year, day.month - 1, day.day, (days + 4) % 7,
            day.toordinal() - datetime.date(day.year, 1, 1).toordinal())


def _clock(second: int) -> tuple[int, int, int]:
    """Hour, minute and second of a second of the day."""
    hour, second = divmod(second, 3600)
    return (hour, *divmod(second, 60))


@BUILTINS.unary("gmtime")
def gmtime(v: Any) -> list:
    if type(v) is not int and type(v) is not float:
        raise error("gmtime() requires numeric inputs")
    if not math.isfinite(v) or abs(v) >= 2**53:
        raise NotMine("gmtime of a number past 2^53")
    out: list = _broken_down(int(v))  # time_t secs = fsecs: toward zero
    out[5] = jv.computed(out[5] + float(v - math.floor(v)))
    return out


def _fields(v: Any, text: str) -> list[int]:
    """jq's ``jv2tm``: up to eight numbers, each cast to an int (year less 1900 and back)."""
    fields = [0] * 6
    for i, x in enumerate(v[:8]):
        if type(x) is not int and type(x) is not float or x != x:
            raise error(text)
        if i < 6:
            if not math.isfinite(x) or abs(x) >= _INT:
                raise NotMine("a date field past an int")
            fields[i] = int(x - 1900) + 1900 if i == 0 else int(x)
    return fields


def _timegm(fields: list[int]) -> int:
    """``timegm``: seconds since the epoch, out-of-range fields carried over."""
    year, month, day, hour, minute, second = fields
    year += month // 12
    month %= 12
    if not 1 <= year <= 9999:
        raise NotMine("a date outside years 1-9999")
    return calendar.timegm((year, month + 1, 1, 0, 0, 0)) + \
        (((day - 1) * 24 + hour) * 60 + minute) * 60 + second


@BUILTINS.unary("mktime")
def _mktime(v: Any) -> int:
    if type(v) is not list:
        raise error("mktime requires array inputs")
    seconds = _timegm(_fields(v, "mktime requires parsed datetime inputs"))
    if abs(seconds) > 2**53:
        raise NotMine("mktime past 2^53")
    if seconds in _MKTIME_FAILURES:  # jq 1.8.2 reads these time_t values as timegm's failure
        raise error(_MKTIME_FAILURES[seconds])
    return seconds


_MKTIME_FAILURES = {-1: "invalid gmtime representation",
                    -2: "mktime not supported on this platform"}


_TWO = tuple(f"{i:02d}" for i in range(100))
_CLOCK_FIELD = {  # of the seconds since the epoch alone
    "H": lambda s, d=None: _TWO[s % 86400 // 3600], "M": lambda s, d=None: _TWO[s % 3600 // 60],
    "S": lambda s, d=None: _TWO[s % 60],
    "p": lambda s, d=None: "AM" if s % 86400 < 43200 else "PM",
    "I": lambda s, d=None: _TWO[(s % 86400 // 3600 + 11) % 12 + 1],
}
_DATE_FIELD = {  # of the day, as :func:`_day` gives it
    "Y": lambda s, d: str(d[0]), "m": lambda s, d: _TWO[d[1] + 1],
    "d": lambda s, d: _TWO[d[2]], "j": lambda s, d: f"{d[4] + 1:03d}",
    "y": lambda s, d: _TWO[d[0] % 100], "e": lambda s, d: f"{d[2]:2d}",
    "a": lambda s, d: _DAYS[d[3]][:3], "A": lambda s, d: _DAYS[d[3]],
    "b": lambda s, d: _MONTHS[d[1]][:3], "h": lambda s, d: _MONTHS[d[1]][:3],
    "B": lambda s, d: _MONTHS[d[1]], "u": lambda s, d: str(d[3] or 7),
    "w": lambda s, d: str(d[3]),
}
_FIELD: dict[str, Callable[[int, Any], str]] = {**_CLOCK_FIELD, **_DATE_FIELD}
_TEXT = {"%": "%", "n": "\n", "t": "\t"}
_SHORTHANDS = {"T": "%H:%M:%S", "R": "%H:%M", "D": "%m/%d/%y", "F": "%Y-%m-%d"}
_YEAR_1000 = (datetime.date(1000, 1, 1).toordinal() - _EPOCH_DAY) * 86400
_YEAR_10000 = (datetime.date(9999, 12, 31).toordinal() - _EPOCH_DAY + 1) * 86400


def _pieces(fmt: str, fields: dict[str, Any] = _FIELD) -> list:
    """A format's plain text (str) and fields (of ``fields``: by default functions of
    :data:`_FIELD`), in order; NotMine for a field ``fields`` lacks."""
    pieces, i = [], 0
    while i < len(fmt):
        if fmt[i] != "%":
            pieces.append(fmt[i])
            i += 1
            continue
        letter = fmt[i + 1:i + 2]
        if letter in _SHORTHANDS:
            pieces.extend(_pieces(_SHORTHANDS[letter], fields))
        elif letter in _TEXT:
            pieces.append(_TEXT[letter])
        elif letter in fields:
            pieces.append(fields[letter])
        else:
            raise NotMine(f"strftime {fmt[i:i + 2]!r}")
        i += 2
    return pieces


@lru_cache(maxsize=64)
def _renderer(fmt: str) -> Callable[[int], str]:
    """A format as a function of the seconds since the epoch, made once per format."""
    pieces = _pieces(fmt)
    dated = any(p in _DATE_FIELD.values() for p in pieces)
    if len(pieces) == 1 and callable(pieces[0]):
        field = pieces[0]
        return (lambda s: field(s, _day(s // 86400))) if dated else field

    def render(s: int) -> str:
        day = _day(s // 86400) if dated else None
        return "".join([p if type(p) is str else p(s, day) for p in pieces])

    return render


def strftime(v: Any, fmt: Any) -> str:
    if type(v) is int and _YEAR_1000 <= v < _YEAR_10000 and type(fmt) is str:
        seconds = v  # gmtime, jv2tm, timegm and gmtime again give the same fields
    else:
        seconds = _seconds(v, fmt)
    text = _renderer(fmt)(seconds)
    if not text and fmt:
        raise error("strftime/1: unknown system failure")
    return text


def _seconds(v: Any, fmt: Any) -> int:
    """The seconds since the epoch ``strftime`` renders, its errors in jq's order."""
    if type(v) is int:
        if not _YEAR_1000 <= v < _YEAR_10000:
            raise NotMine("strftime of a year without four digits")
    elif type(v) is float:  # gmtime's seconds take the fraction: each step as jq takes it
        v = gmtime(v)
    elif type(v) is not list:
        raise error("strftime/1 requires parsed datetime inputs")
    if type(fmt) is not str:
        raise error("strftime/1 requires a string format")
    if type(v) is int:
        return v
    fields = _fields(v, "strftime/1 requires parsed datetime inputs")
    if not 1000 <= fields[0] <= 9999:
        raise NotMine("strftime of a year without four digits")
    return _timegm(fields)


_ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_ISO = singular(lambda v, e: _ISO_FORMAT)
BUILTINS[("strftime", 1)] = direct(lambda f: over_arg(f, strftime), strftime)
BUILTINS[("todate", 0)] = direct(lambda: over_arg(_ISO, strftime),
                                 lambda v: strftime(v, _ISO_FORMAT))
_PARSED = {"Y": (r"([0-9]{4})", 0, 0), "m": (r"([0-9]{2})", 1, 1), "d": (r"([0-9]{2})", 2, 0),
           "H": (r"([0-9]{2})", 3, 0), "M": (r"([0-9]{2})", 4, 0), "S": (r"([0-9]{2})", 5, 0)}
_RANGES = ((0, 9999), (0, 11), (1, 31), (0, 23), (0, 59), (0, 60))


@lru_cache(maxsize=64)
def _strptime_pattern(fmt: str) -> tuple[re.Pattern, tuple[tuple[int, int, int, int], ...]]:
    """A format's regular expression and its fields, made once per format (a column of
    dates parses in one format: building it per date cost more than the parse)."""
    pattern, slots = [], []
    for part in re.split(r"(%.)", fmt):
        if part.startswith("%"):
            if part[1:] not in _PARSED or part[1:] in {s for s, _, _ in slots}:
                raise NotMine(f"strptime {part!r}")
            regex, index, shift = _PARSED[part[1:]]
            pattern.append(regex)
            slots.append((part[1:], index, shift))
        elif part:
            if any(c.isspace() for c in part):
                raise NotMine("strptime with white space in the format")
            pattern.append(re.escape(part))
    if {s for s, _, _ in slots} < {"Y", "m", "d"}:
        raise NotMine("strptime without a whole date")
    return re.compile("".join(pattern)), \
        tuple((index, shift, *_RANGES[index]) for _, index, shift in slots)


def _parsed(v: Any, fmt: Any) -> tuple[list[int], str, datetime.date]:
    """glibc's ``strptime`` for formats of %Y %m %d %H %M %S (each once, fixed width)
    and plain characters: the six fields, what trails after white space, and the day."""
    if type(v) is not str or type(fmt) is not str:
        raise error("strptime/1 requires string inputs and arguments")
    compiled, slots = _strptime_pattern(fmt)
    match = compiled.match(v)
    rest = v[match.end():] if match else ""
    if match is None or rest and not rest[0].isspace():
        raise NotMine("a date glibc may read otherwise")
    fields = [0] * 6
    for (index, shift, low, high), digits in zip(slots, match.groups(), strict=True):
        fields[index] = field = int(digits) - shift
        if not low <= field <= high:
            raise NotMine("a date field out of range")
    try:
        day = datetime.date(fields[0], fields[1] + 1, fields[2])
    except ValueError as exc:
        raise NotMine("a day the month does not have") from exc
    return fields, rest, day


def strptime(v: Any, fmt: Any) -> list:
    """jq's [year, month, day, hour, minute, second, weekday, yearday] (see
    :func:`_parsed`) plus what trails after white space."""
    fields, rest, day = _parsed(v, fmt)
    out: list = [*fields, (day.weekday() + 1) % 7, day.timetuple().tm_yday - 1]
    return [*out, rest] if rest else out


def _fromdate(v: Any, fmt: Any) -> int:
    """``strptime(fmt) | mktime`` without the weekday and yearday mktime ignores."""
    if fmt == _ISO_FORMAT:
        return _from_iso(v)
    fields, _, day = _parsed(v, fmt)
    return _mktime_of(day, fields)


_ISO_MINUTES = {f"{h:02d}:{m:02d}:": (h * 60 + m) * 60 for h in range(24) for m in range(60)}
_ISO_SECONDS = {f"{s:02d}Z": s for s in range(60)}
_ISO_DAYS: dict[str, int] = {}
"""'YYYY-MM-DDT' -> the second its day starts, for days fromdate has read (up to
:data:`_ISO_DAYS_KEPT`, about 90 years of them); never 1969-12-31, whose last two seconds
jq reads as mktime's failures."""
_ISO_DAYS_KEPT = 1 << 15
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T")


def _from_iso(v: Any) -> int:
    """``fromdate``: 'YYYY-MM-DDTHH:MM:SSZ' of a day read before, by its three parts (each
    a key of a table of the valid ones: no hour 24, no leap second)."""
    try:
        return _ISO_DAYS[v[:11]] + _ISO_MINUTES[v[11:17]] + _ISO_SECONDS[v[17:]]
    except (KeyError, TypeError):  # TypeError: not a string
        return _from_iso_anew(v)


def _from_iso_anew(v: Any) -> int:
    """``fromdate`` of a date of a day not read before (kept from now on, when the date
    is 'YYYY-MM-DDTHH:MM:SSZ' alone and Python's C reader takes its day), or of any other
    input: as strptime reads it."""
    if type(v) is str and len(v) == 20 and _ISO_DAY.match(v) and v[:11] != "1969-12-31T" \
            and v[11:17] in _ISO_MINUTES and v[17:] in _ISO_SECONDS:
        try:
            start = (datetime.date.fromisoformat(v[:10]).toordinal() - _EPOCH_DAY) * 86400
        except ValueError:  # a day the month lacks, year 0: strptime's steps decline
            pass
        else:
            if len(_ISO_DAYS) >= _ISO_DAYS_KEPT:
                _ISO_DAYS.clear()
            _ISO_DAYS[v[:11]] = start
            return start + _ISO_MINUTES[v[11:17]] + _ISO_SECONDS[v[17:]]
    fields, _, day = _parsed(v, _ISO_FORMAT)
    return _mktime_of(day, fields)


def _mktime_of(day: datetime.date, fields: list[int]) -> int:
    seconds = (day.toordinal() - _EPOCH_DAY) * 86400 + \
        (fields[3] * 60 + fields[4]) * 60 + fields[5]
    if seconds in _MKTIME_FAILURES:
        raise error(_MKTIME_FAILURES[seconds])
    return seconds


BUILTINS[("strptime", 1)] = direct(lambda f: over_arg(f, strptime), strptime)
BUILTINS[("fromdate", 0)] = direct(lambda: over_arg(_ISO, _fromdate), _from_iso)
BUILTINS[("fromdateiso8601", 0)] = BUILTINS[("fromdate", 0)]
BUILTINS[("todateiso8601", 0)] = BUILTINS[("todate", 0)]


_ISO_PARTS = {"Y": (0, 4), "m": (5, 7), "d": (8, 10), "H": (11, 13), "M": (14, 16),
              "S": (17, 19)}
"""Where each field of strftime is in 'YYYY-MM-DDTHH:MM:SSZ'."""


@lru_cache(maxsize=64)
def iso_reformat(fmt: str) -> Callable[[Any], str] | None:
    """``fromdate | strftime(fmt)`` as one function, when ``fmt`` has no field but the
    year, month, day, hour, minute and second (``"%H"``, ``"%Y-%m"``): a date of a day
    :func:`_from_iso` has read is cut into those fields, as gmtime would give them back;
    any other input goes through both builtins (a year below 1000 is libjq's to print).
    None for other formats."""
    try:
        pieces = _pieces(fmt, _ISO_PARTS)
    except NotMine:
        return None
    if not pieces:
        return None
    parts = [repr(p) if type(p) is str else f"v[{p[0]}:{p[1]}]" for p in pieces]
    text = f"def reformat(v):\n    if type(v) is str and v[:11] in days and v[11:17] in " \
           f"minutes and v[17:] in seconds and v[0] != '0':  # years below 1000: libjq's\n" \
           f"        return {' + '.join(parts)}\n    return strftime(fromdate(v), fmt)\n"
    scope = {"days": _ISO_DAYS, "minutes": _ISO_MINUTES, "seconds": _ISO_SECONDS,
             "strftime": strftime, "fromdate": _from_iso, "fmt": fmt}
    exec(compile(text, "<jq date format>", "exec"), scope)  # noqa: S102 - our own text
    return scope["reformat"]


C_DATES: Callable[[list, tuple], tuple[list, list] | None] | None = None
"""``_jvbuild.iso_dates`` where the extension is built (query/projected.py sets it): the
pieces of each date cut in one pass in C, each distinct result one object, and the
distinct days, or None where a value is not a date of that form (hours to 23, minutes
and seconds to 59, years from 1000)."""


def reformat_column(fmt: str, values: list) -> list | None:
    """:func:`iso_reformat` of each of ``values`` at C's speed (:data:`C_DATES`, else each
    date cut by C's ``map``), each distinct day checked once (read by :func:`_from_iso`);
    None unless every value is a date the function would cut (then a loop calls it on
    each, and on the rest as jq would)."""
    pieces = _pieces(fmt, _ISO_PARTS)
    if all(type(piece) is str for piece in pieces):
        return None
    check()
    found = _cut_in_c(pieces, values) if C_DATES is not None else _cut(pieces, values)
    if found is None or len(found[0]) > _ISO_DAYS_KEPT // 2:
        return None
    days, out = found
    for day in days.difference(_ISO_DAYS):
        try:
            _from_iso(f"{day}00:00:00Z")
        except JqError:
            return None
    return out if days.issubset(_ISO_DAYS) else None


def _cut_in_c(pieces: list, values: list) -> tuple[set, list] | None:
    found = C_DATES(values, tuple(pieces))
    return None if found is None else (set(found[0]), found[1])


def _cut(pieces: list, values: list) -> tuple[set, Any] | None:
    """The distinct days of ``values`` and their pieces (an iterator), by C's map."""
    if set(map(type, values)) != {str}:
        return None

    def cut(start: int, stop: int | None) -> Iterator[str]:
        return map(getitem, values, repeat(slice(start, stop)))

    days = set(cut(0, 11))
    if any(day[:1] == "0" for day in days) or \
            not set(cut(11, 17)).issubset(_ISO_MINUTES) or \
            not set(cut(17, None)).issubset(_ISO_SECONDS):
        return None
    parts = [repeat(piece) if type(piece) is str else cut(*piece) for piece in pieces]
    joined = map("".join, zip(*parts, strict=False))  # (repeat: as long as the cut ones)
    return days, list(parts[0]) if len(parts) == 1 else list(joined)
