"""Dates on the fast path (fromdate's ISO reader, strftime of the time of day only,
gmtime's fields) answer exactly as libjq 1.8.2, or decline."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import dates, vector
from jqmagic.core.jqlang.errors import NotMine
from tests.core.jqlang.oracle import fast, jq_texts, libjq
from tests.core.jqlang.test_vector import _fast as _fast_rows

_ISO_PARTS = st.tuples(st.integers(1000, 9999) | st.integers(0, 10000),
                       st.integers(1, 12) | st.integers(0, 13),
                       st.integers(1, 28) | st.integers(0, 32),
                       st.integers(0, 23) | st.integers(0, 25),
                       st.integers(0, 59) | st.integers(0, 61),
                       st.integers(0, 59) | st.integers(0, 61),
                       st.sampled_from(["Z", "Z", "Z", "Z ", "Z\tx", "Zx", "", "+00:00",
                                        ".5Z"]))
ISO_DATES = _ISO_PARTS.map(lambda p: f"{p[0]:04d}-{p[1]:02d}-{p[2]:02d}T{p[3]:02d}:"
                                     f"{p[4]:02d}:{p[5]:02d}{p[6]}")
SECONDS = st.integers(-70_000_000_000, 300_000_000_000) | st.floats(-7e10, 3e11) | \
    st.sampled_from([0, -1, -2, 86399, -86400, 253402300799, 253402300800, -30610224000,
                     -30610224001, 1425599507.9, -0.5])
PROGRAMS = ["fromdate", "fromdateiso8601", 'strptime("%Y-%m-%dT%H:%M:%SZ")',
            "fromdate | todate", 'fromdate | strftime("%H")']
NUMBER_PROGRAMS = ['strftime("%H")', 'strftime("%T %p %I")', 'strftime("%Y-%m-%d %j %a")',
                   "todate", "gmtime", "gmtime | mktime", 'strftime("%R%%")']


def _same_as_libjq(program: str, value) -> None:
    wrapped = f"[.[] | try ({program}) catch .]"
    document = json.dumps([value])
    got = fast(wrapped, document, compact=True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got == libjq(wrapped, document, compact=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(date=ISO_DATES, program=st.sampled_from(PROGRAMS))
def test_iso_dates_read_as_libjq(date, program):
    _same_as_libjq(program, date)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seconds=SECONDS, program=st.sampled_from(NUMBER_PROGRAMS))
def test_seconds_formatted_as_libjq(seconds, program):
    _same_as_libjq(program, seconds)


_GOOD_DAYS = st.sampled_from(["2025-02-28", "2024-02-29", "1970-01-01", "1969-12-31",
                              "1969-12-30", "9999-12-31"])
_BAD_DAYS = st.sampled_from(["0999-12-31", "2025-02-29", "2025-13-01", "2025-1-01", "２025-01-01"])
_GOOD_TIMES = st.sampled_from(["00:00:00", "23:59:59", "23:59:58", "09:05:07", "23:59:60"])
_BAD_TIMES = st.sampled_from(["24:00:00", "12:60:00", "9:05:07", "0a:00:00", "00:00:0٣"])
_GOOD_ENDS = st.sampled_from(["Z", "Z", "Z", "Z ", "Z\n"])
_ENDS = _GOOD_ENDS | st.sampled_from(["", "z", "ZZ", "+00:00"])
_DATES_OF_FEW_DAYS = st.lists(
    st.tuples(_GOOD_DAYS, _GOOD_TIMES, _GOOD_ENDS).map(lambda p: "T".join(p[:2]) + p[2])
    | st.tuples(_GOOD_DAYS | _BAD_DAYS, _GOOD_TIMES | _BAD_TIMES, _ENDS).map(
        lambda p: "T".join(p[:2]) + p[2])
    | st.sampled_from([1, None, [], {}, "", "2025-02-28T22:03:15Z"]),
    min_size=1, max_size=6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dates=_DATES_OF_FEW_DAYS)
def test_dates_of_a_day_read_before_as_libjq(dates):
    """fromdate keeps the days it has read (a few here, read again and again): a later
    date of the same day, well or badly formed, reads as libjq reads it."""
    for date in dates:
        _same_as_libjq("fromdate", date)


def test_the_last_seconds_of_1969_after_its_first():
    wrapped = "[.[] | try fromdate catch .]"
    document = json.dumps(["1969-12-31T00:00:00Z", "1969-12-31T23:59:59Z",
                           "1969-12-31T23:59:58Z", "1969-12-31T23:59:57Z"])
    got = fast(wrapped, document, compact=True)
    assert got == libjq(wrapped, document, compact=True)
    assert "invalid gmtime representation" in got.text


_FORMAT_PIECES = st.sampled_from(
    ["%H", "%M", "%S", "%p", "%I", "%Y", "%m", "%d", "%j", "%y", "%e", "%a", "%A", "%b", "%h",
     "%B", "%u", "%w", "%%", "%n", "%t", "%T", "%R", "%D", "%F", "-", ":", " ", "x", "é", "%Q"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(_FORMAT_PIECES, max_size=5), seconds=SECONDS)
def test_formats_rendered_as_libjq(pieces, seconds):
    """Any format of the fields strftime renders itself, over seconds or gmtime's arrays."""
    fmt = json.dumps("".join(pieces))
    _same_as_libjq(f"strftime({fmt})", seconds)
    _same_as_libjq(f"gmtime | strftime({fmt})", seconds)


def test_days_kept_are_bounded(monkeypatch):
    """Past its bound the table of days starts again, and dates read alike."""
    monkeypatch.setattr(dates, "_ISO_DAYS_KEPT", 3)
    wrapped = "[.[] | try fromdate catch .]"
    document = json.dumps([f"2025-03-{day:02d}T0{day % 10}:00:0{day % 7}Z"
                           for day in (*range(1, 9), *range(1, 9))])
    got = fast(wrapped, document, compact=True)
    assert got == libjq(wrapped, document, compact=True)
    assert len(dates._ISO_DAYS) <= 3


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dates=_DATES_OF_FEW_DAYS, pieces=st.lists(_FORMAT_PIECES, min_size=1, max_size=4),
       name=st.sampled_from(["fromdate", "fromdateiso8601"]))
def test_fromdate_then_strftime_together_as_libjq(dates, pieces, name):
    """``fromdate | strftime(F)`` in a fused loop is one function (the fields cut out of a
    date of a day read before): each date, read once and again, as libjq renders it."""
    fmt = json.dumps("".join(pieces))
    for program in (f"[.[] | {name} | strftime({fmt})]",
                    f"[.[] | {name} | strftime({fmt}) | length]"):
        for date in dates:
            document = json.dumps([date, date])
            got = fast(program, document, compact=True)
            event("declined" if got is None else "answered")
            if got is not None:
                assert got == libjq(program, document, compact=True)


def test_a_format_of_other_fields_is_not_cut_from_the_text():
    assert dates.iso_reformat("%H:%M") is not None
    assert dates.iso_reformat("%j") is None and dates.iso_reformat("%D") is None
    assert dates.iso_reformat("") is None


def test_a_year_below_1000_is_libjqs_to_print_when_its_day_was_read_before():
    program, document = '[.[] | fromdate | strftime("%Y %H")]', '["0999-12-31T01:00:00Z"]'
    for _ in range(2):  # the day read (and kept) the first time
        got = fast(program, document, compact=True)
        assert got is None or got == libjq(program, document, compact=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(found=_DATES_OF_FEW_DAYS, pieces=st.lists(_FORMAT_PIECES, min_size=1, max_size=4),
       name=st.sampled_from(["fromdate", "fromdateiso8601"]), times=st.integers(1, 20),
       in_c=st.booleans())
def test_a_column_of_dates_reformatted_as_libjq(found, pieces, name, times, in_c):
    """``[ITEMS[] | .ts | fromdate | strftime(F)]`` over a column (:mod:`.vector`): every
    date cut in one pass in C (or by C's map without the extension), or the loop where
    one is not a date the cut reads."""
    rows = [{"ts": date} for date in found] * times
    program = f"[.[] | .ts | {name} | strftime({json.dumps(''.join(pieces))})]"
    saved = dates.C_DATES
    dates.C_DATES = saved if in_c else None
    try:
        texts, _ = _fast_rows(program, rows)
    except NotMine:  # the fast path declines: libjq answers
        return
    finally:
        dates.C_DATES = saved
    assert texts == jq_texts(program, json.dumps(rows))


def test_the_cut_in_c_is_in_place():
    assert dates.C_DATES is not None, "projected.py hands _jvbuild.iso_dates over"


def test_a_column_of_dates_is_cut_whole(monkeypatch):
    made, saved = [], vector.reformat_column
    monkeypatch.setattr(vector, "reformat_column",
                        lambda fmt, values: made.append(saved(fmt, values)) or made[-1])
    rows = [{"ts": f"2025-03-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{i % 59:02d}Z"}
            for i in range(3000)]
    program = '[.[] | .ts | fromdateiso8601 | strftime("%Y-%m %H")] | unique'
    texts, _ = _fast_rows(program, rows)
    assert made and made[-1] is not None
    assert texts == jq_texts(program, json.dumps(rows))
