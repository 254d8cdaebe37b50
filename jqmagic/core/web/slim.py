"""Overlong start tags cut down to the attributes the converter reads, before any parser
sees them: 10^6 attributes cost a tokenizer seconds, and nothing here reads them."""

from __future__ import annotations

import re
from itertools import islice

# Where a lazy-loading image keeps its real address.
LAZY_SRC = ("data-src", "data-original", "data-lazy-src", "data-url", "data-hi-res-src")
# A start tag this long (its attributes) is slimmed. A tag whose quotes do not pair up (a
# quoted ">" ended the match early) is left as it is.
_LONG_TAG = re.compile(r"<([A-Za-z][^\s/<>]*)(\s[^<>]{200,})>")
_QUOTED = re.compile(r""""[^"]*"|'[^']*'""")
_READ = ("class|id|role|style|hidden|aria-hidden|href|onclick|src|srcset|data-srcset|alt|title|"
         "alttext|display|encoding|content|property|name|charset|rel|itemprop|summary|"
         "datatable|data-lang|data-language|poster|colspan|rowspan|start|type|lang|"
         + "|".join(LAZY_SRC))
_READ_ATTR = re.compile(rf"""\s((?i:{_READ}))(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))?"""
                        r"""(?=[\s/]|$)|"[^"]*"|'[^']*'""")
# A tag stuffed with attributes (over 1,000 in its first 64 KiB) is read for the ones
# the converter needs in those 64 KiB only; any other long tag (a data: URI) whole.
_STUFFED = (1 << 16, 1_000)
_SLIM_LOOKS = 300  # attributes and quoted values looked at in one tag, at most
_NAME = re.compile(r"""\s([^\s"'=<>/]+)""")  # attribute names (and a spaced value: no harm)
_READ_NAMES = frozenset(_READ.split("|"))


def slim_tags(html: str) -> str:
    """``html`` with each overlong start tag cut down to the attributes the converter
    reads (the first of each name, as a browser keeps): one scan in C, then a bounded look
    at each long tag."""
    return _LONG_TAG.sub(_slim, html)


def _slim(m: re.Match) -> str:
    attrs = m.group(2)
    rest = _QUOTED.sub("", attrs)
    if '"' in rest or "'" in rest:
        return m.group(0)
    window, many = _STUFFED
    end = window if attrs.count(" ", 0, window) > many else len(attrs)
    close = "/" if rest.rstrip().endswith("/") else ""
    names = set(map(str.lower, _NAME.findall(rest, 0, end)))
    if _READ_NAMES.isdisjoint(names):
        return f"<{m.group(1)}{close}>"  # nothing it reads: no attribute to look at
    kept, seen = [], set()
    for a in islice(_READ_ATTR.finditer(attrs, 0, end), _SLIM_LOOKS):
        name = a.group(1)
        if name and name.lower() not in seen:
            seen.add(name.lower())
            kept.append(f" {name}{a.group(2) or ''}")
    if "onclick" in names and "onclick" not in seen:  # a script as its value: a link still
        kept.append(" onclick")
    return f"<{m.group(1)}{''.join(kept)}{close}>"
