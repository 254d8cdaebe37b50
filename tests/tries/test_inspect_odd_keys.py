"""%inspect's tree shows a key that would read as something else by its JSON text: the
empty key of a package-lock.json's root package was a row with no name."""

from __future__ import annotations

import pytest

pytest.importorskip("IPython")


def test_odd_keys_are_quoted_plain_ones_are_not(ip, run_cell):
    ip.user_ns["doc"] = {"packages": {"": {"name": "root"}, "node_modules/a b": {},
                                      "line\nbreak": 1, " padded": 2, "[]": 3,
                                      "... 2 more keys": 4, "café": 5}}
    shown = ip.display_formatter.format(run_cell("%inspect doc"))[0]["text/plain"]
    rows = shown.splitlines()
    assert '    ""  object {1 key}' in rows
    assert "    node_modules/a b  object {0 keys}" in rows
    assert '    "line\\nbreak"  number' in rows
    assert '    " padded"  number' in rows
    assert '    "[]"  number' in rows
    assert '    "... 2 more keys"  number' in rows
    assert "    café  number" in rows
    assert len(rows) == 9, shown  # no key broke a row in two
