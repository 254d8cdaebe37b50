"""jqmagic browse's shape tree shows a key that would read as something else by its JSON
text, as %inspect's tree does (core/words.key_label): a package-lock.json's root package,
key "", was a row with no name."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("textual", reason="jqmagic browse needs the tui extra (Textual)")

from jqmagic.cli.browse import browser  # noqa: E402
from tests.cli.test_browse import shape_tree  # noqa: E402


def test_the_empty_key_is_quoted(tmp_path):
    path = tmp_path / "package-lock.json"
    path.write_text(json.dumps({"packages": {"": {"name": "root"}, "node_modules/a": {}}}))
    app = browser(str(path), "")

    async def main():
        async with app.run_test() as pilot:
            tree = await shape_tree(app, pilot)
            packages = tree.root.children[0]
            packages.expand()
            await pilot.pause(0.1)
            return [str(node.label) for node in packages.children]

    assert asyncio.run(main()) == ['""  object', "node_modules/a  object"]
