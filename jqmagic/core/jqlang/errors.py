"""The two ways the fast path stops: "not mine" (libjq decides) and a jq runtime error."""

from __future__ import annotations


class NotMine(Exception):
    """The program, an input or a value is outside what the fast path reproduces exactly."""


class JqError(Exception):
    """A jq runtime error; ``try`` / ``?`` catch it, anything else hands the query to libjq."""
