"""SchemaBrowser driven from Python as the front end would: select, expand, page, filter, query."""

from __future__ import annotations

import json

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.widget import SchemaBrowser
from tests.shared import CORPUS_JSON

CORPUS = CORPUS_JSON
DOC = {
    "total": 3,
    "users": [
        {"id": 1, "name": "ann", "settings": {"theme": "dark", "beta": True}},
        {"id": 2, "email": None, "settings": {"theme": "light"}},
        {"id": 3, "email": "c@x.org", "settings": {"theme": "dark"}},
    ],
}


def keys(browser: SchemaBrowser) -> list[str]:
    return [key for _, key in browser.tree.options]


def test_starts_with_the_root_open():
    b = SchemaBrowser(value=DOC)
    assert keys(b) == [".", ".total", ".users"]
    assert b.selected == "." and b.tree.value == "."
    assert b.get_state()["selected"] == "."
    assert "object {2 keys}" in b.tree.options[0][0]


def test_clicking_a_row_selects_and_opens_it():
    b = SchemaBrowser(value=DOC)
    b.tree.value = ".users"  # what a click in the front end sets
    assert b.selected == ".users"
    assert keys(b) == [".", ".total", ".users", ".users[]"]
    b.tree.value = ".users[]"
    assert keys(b)[-4:] == [".users[].id", ".users[].name", ".users[].settings",
                            ".users[].email"]
    label = dict((k, lbl) for lbl, k in b.tree.options)[".users[].name"]
    assert label.strip().endswith("string (1/3)")  # presence in the label


def test_details_show_pointer_jq_path_types_presence_samples():
    b = SchemaBrowser(value=DOC)
    b.select(".users[].email")  # opens every ancestor
    assert ".users[].email" in keys(b)
    details = b.details.value
    assert "<code>/users/1/email</code>" in details  # the first element that has it
    assert "<code>.users[].email</code>" in details
    assert "null (1), string (1)" in details
    assert "2 of 3 objects" in details
    assert "&quot;c@x.org&quot;" in details
    b.select(".users[].settings.theme")
    assert "samples" in b.details.value and "&quot;light&quot;" in b.details.value
    assert "<code>2</code>" in b.details.value  # distinct


def test_collapse_button():
    b = SchemaBrowser(value=DOC)
    b.select(".users[]")
    assert ".users[].id" in keys(b)
    b.collapse_button.click()
    assert ".users[].id" not in keys(b) and ".users[]" in keys(b)
    b.expand(".users[]")
    assert ".users[].id" in keys(b)


def test_children_are_paged():
    b = SchemaBrowser(value={f"k{i}": i for i in range(100_000)}, page_size=50)
    assert len(b.tree.options) == 52  # root, 50 keys, "N more"
    label, more = b.tree.options[-1]
    assert more == ". more" and label.strip() == "… 951 more"  # 1000 keys tracked + <other keys>
    b.tree.value = more
    assert len(b.tree.options) == 102 and b.tree.options[-1][0].strip() == "… 901 more"
    assert b.selected == "."
    assert "object {100000 keys}" in b.tree.options[0][0]


def test_filter_narrows_keys_and_keeps_paths_to_matches():
    b = SchemaBrowser(value=DOC)
    b.select(".users[].settings")
    b.filter_box.value = "THE"
    assert b.filter == "THE"
    assert keys(b) == [".", ".users", ".users[]", ".users[].settings",
                       ".users[].settings.theme"]
    b.filter_box.value = ""
    assert ".total" in keys(b)


def test_selecting_an_unknown_path_is_an_error():
    b = SchemaBrowser(value=DOC)
    with pytest.raises(JqMagicError) as exc:
        b.select(".nope")
    assert exc.value.code == "NOT_FOUND"
    assert b.selected == "."


def test_query_box_runs_on_the_selected_node():
    b = SchemaBrowser(value=DOC, max_results=2)
    b.select(".users[]")
    b.query_box.value = ".id * 10"
    b.run_button.click()
    assert b.query == ".id * 10"
    text = b.results.value
    assert "10" in text and "20" in text and "30" not in text  # bounded to 2
    assert "Truncated" in text


def test_query_hints_from_the_shape():
    b = SchemaBrowser(value=DOC)
    b.select(".users[]")
    b.query = ".nmae"
    assert "did you mean .users[].name?" in b.run_query()
    b.query = "error(\"boom\")"
    shown = b.run_query()
    assert "QUERY_ERROR" in shown and "boom" in shown and "color:#b00" in b.results.value


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")
def test_corpus_file_and_pointer():
    b = SchemaBrowser(CORPUS / "geojson/world-countries.geo.json", path="/features")
    assert b.selected == ".features"
    b.select(".features[].properties.name")
    assert "180 of 180 objects" in b.details.value
    assert "<code>/features/0/properties/name</code>" in b.details.value
    b.query = "ascii_downcase"
    assert '"afghanistan"' in b.run_query()


def test_streamed_file(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps(DOC))
    b = SchemaBrowser(file=path, stream=True)
    b.select(".users[].settings.theme")
    assert "<code>/users/*/settings/theme</code>" in b.details.value
    b.query = "."
    assert '"dark"' in b.run_query()


def test_import_jqmagic_does_not_import_ipywidgets():
    import subprocess
    import sys

    code = ("import sys, jqmagic\n"
            "assert 'ipywidgets' not in sys.modules\n"
            "assert {'shape', 'payload', 'SchemaBrowser'} <= set(jqmagic.__all__)\n"
            "assert jqmagic.SchemaBrowser.__name__ == 'SchemaBrowser'\n"
            "assert 'ipywidgets' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
