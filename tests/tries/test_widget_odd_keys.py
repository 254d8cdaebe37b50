"""The SchemaBrowser widget's rows (and its saved snapshot) name an odd key by its JSON text,
as %inspect and jqmagic browse do: a package-lock.json's "" key was a row with no name."""

from __future__ import annotations

import pytest

pytest.importorskip("anywidget")

from jqmagic.notebook.widget import SchemaBrowser  # noqa: E402


def test_rows_quote_odd_keys_only():
    b = SchemaBrowser(value={"packages": {"": {"name": "root"}, "node_modules/a": {},
                                          "two\nlines": 1}})
    names = {row["id"]: row["name"] for row in b.get_state()["rows"]}
    assert names['.packages[""]'] == '""'
    assert names['.packages["node_modules/a"]'] == "node_modules/a"
    assert names['.packages["two\\nlines"]'] == '"two\\nlines"'
    assert names[".packages"] == "packages" and names["."] == "."
