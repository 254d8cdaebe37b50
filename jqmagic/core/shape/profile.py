"""Per-path value profiles for ``shape(stats=True)``: one pass, bounded memory.

A :class:`Profile` sees every scalar at one path and keeps nulls, min/max of numbers,
string lengths, up to five sample values and the number of distinct values: exact up to
``distinct_cap``, then estimated with a k-minimum-values sketch (deterministic hashes, so
the same input always gives the same estimate).
"""

from __future__ import annotations

import heapq
from hashlib import blake2b
from typing import Any

MAX_SAMPLES = 5
SAMPLE_CHARS = 60
KMV_SIZE = 512
_HASH_SPACE = 2**64


def _hash(key: Any) -> int:
    return int.from_bytes(blake2b(repr(key).encode(), digest_size=8).digest(), "big")


def _sample(value: Any) -> Any:
    if isinstance(value, str) and len(value) > SAMPLE_CHARS:
        return value[:SAMPLE_CHARS] + "…"
    return value


class Profile:
    """Statistics of the scalar values seen at one path."""

    __slots__ = ("distinct_cap", "exact", "kmv", "kmv_set", "nmin", "nmax", "lmin", "lmax",
                 "samples", "seen")

    def __init__(self, distinct_cap: int = 1000):
        self.distinct_cap = distinct_cap
        self.exact: set | None = set()
        self.kmv: list[int] = []  # max-heap (negated) of the KMV_SIZE smallest hashes
        self.kmv_set: set[int] = set()
        self.nmin = self.nmax = None
        self.lmin = self.lmax = None
        self.samples: list = []
        self.seen = 0  # non-null values: the estimate can never exceed it

    def see(self, value: Any) -> None:
        """Account for one scalar (str, int, float, bool or None)."""
        if value is None:
            return
        self.seen += 1
        t = type(value)
        if t is bool:
            key: Any = ("b", value)
        else:
            key = value
            if t is str:
                n = len(value)
                if self.lmin is None or n < self.lmin:
                    self.lmin = n
                if self.lmax is None or n > self.lmax:
                    self.lmax = n
            elif self.nmin is None or value < self.nmin:
                self.nmin = value
                if self.nmax is None:
                    self.nmax = value
            elif value > self.nmax:
                self.nmax = value
        exact = self.exact
        if exact is not None:
            if key in exact:
                return
            exact.add(key)
            if len(self.samples) < MAX_SAMPLES:
                self.samples.append(_sample(value))
            if len(exact) > self.distinct_cap:
                for k in exact:
                    self._sketch(k)
                self.exact = None
        else:
            self._sketch(key)

    def _sketch(self, key: Any) -> None:
        h = _hash(key)
        heap = self.kmv
        if h in self.kmv_set:
            return
        if len(heap) < KMV_SIZE:
            heapq.heappush(heap, -h)
            self.kmv_set.add(h)
        elif h < -heap[0]:
            self.kmv_set.discard(-heapq.heappushpop(heap, -h))
            self.kmv_set.add(h)

    def distinct(self) -> tuple[int, bool]:
        """The number of distinct non-null values and whether it is an estimate."""
        if self.exact is not None:
            return len(self.exact), False
        if len(self.kmv) < KMV_SIZE:
            return len(self.kmv), False
        return min(round((KMV_SIZE - 1) * _HASH_SPACE / -self.kmv[0]), self.seen), True

    def to_dict(self) -> dict:
        """The profile as plain data (only the fields that have a value)."""
        out: dict[str, Any] = {}
        n, estimated = self.distinct()
        out["distinct"] = n
        if estimated:
            out["distinctEstimated"] = True
        if self.nmin is not None:
            out["min"], out["max"] = self.nmin, self.nmax
        if self.lmin is not None:
            out["minLength"], out["maxLength"] = self.lmin, self.lmax
        if self.samples:
            out["samples"] = list(self.samples)
        return out
