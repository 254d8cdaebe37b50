"""Dates on the fast path (fromdate's ISO reader, strftime of the time of day only,
gmtime's fields) answer exactly as libjq 1.8.2, or decline."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.core.jqlang.oracle import fast, libjq

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
