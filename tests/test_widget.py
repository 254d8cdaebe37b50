"""SchemaBrowser driven from Python as its view drives it: trait changes through
``set_state`` (select, open, close, scroll a window, search, run a query) and what
``get_state`` then holds."""

from __future__ import annotations

import json
import threading
import time

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import query
from jqmagic.notebook.widget import SchemaBrowser
from tests.shared import CORPUS_JSON

DOC = {
    "total": 3,
    "users": [
        {"id": 1, "name": "ann", "settings": {"theme": "dark", "beta": True}},
        {"id": 2, "email": None, "settings": {"theme": "light"}},
        {"id": 3, "email": "c@x.org", "settings": {"theme": "dark"}},
    ],
}
MULTI_YAML = """\
apiVersion: v1
kind: Service
metadata: {name: web}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
"""


def ids(browser: SchemaBrowser) -> list[str]:
    return [row["id"] for row in browser.get_state()["rows"]]


def detail(browser: SchemaBrowser, label: str) -> str:
    return dict(browser.get_state()["details"])[label]


def test_starts_with_the_first_levels_open_and_its_rows_described():
    b = SchemaBrowser(value=DOC)
    state = b.get_state()
    # the shape at first sight: the array's elements and their keys, not a closed []
    assert ids(b) == [".", ".total", ".users", ".users[]", ".users[].id", ".users[].name",
                      ".users[].settings", ".users[].email"]
    assert state["selected"] == "." and state["row_count"] == 8
    assert state["opened"] == [".", ".users", ".users[]"]
    root, total, users = state["rows"][:3]
    assert (root["type"], root["size"], root["open"], root["kids"]) == \
        ("object", "{2 keys}", True, True)
    assert (total["type"], total["sample"], total["kids"]) == ("number", "3", False)
    assert (users["size"], users["open"], users["parent"]) == ("[3]", True, ".")


def test_the_first_view_opens_only_what_fits_in_the_box():
    wide = SchemaBrowser(value={f"k{i}": [i] for i in range(40)})
    assert wide.opened == ["."]  # 41 rows already: nothing more opens
    records = SchemaBrowser(value=[{"id": i, "tags": ["x"], "owner": {"login": "a"}}
                                   for i in range(3)])
    assert records.opened == [".", ".[]", ".[].owner", ".[].tags"]
    assert len(ids(records)) <= 16


def test_opening_and_closing_as_the_view_does():
    b = SchemaBrowser(value=DOC)
    b.set_state({"opened": ["."]})
    assert ids(b) == [".", ".total", ".users"]
    b.set_state({"opened": [".", ".users", ".users[]"]})
    assert ids(b)[3:] == [".users[]", ".users[].id", ".users[].name", ".users[].settings",
                          ".users[].email"]
    name = next(r for r in b.rows if r["id"] == ".users[].name")
    assert (name["presence"], name["sample"]) == ("1/3", '"ann"')
    b.set_state({"opened": [".", ".users"]})
    assert ids(b) == [".", ".total", ".users", ".users[]"]
    b.collapse(".users")
    assert ids(b) == [".", ".total", ".users"]


def test_selecting_opens_ancestors_and_fills_the_details():
    b = SchemaBrowser(value=DOC)
    b.set_state({"selected": ".users[].email"})
    assert {".users", ".users[]"} <= set(b.opened)
    assert ids(b)[b.cursor] == ".users[].email"
    assert detail(b, "JSON Pointer") == "/users/1/email"  # the first element that has it
    assert detail(b, "jq path") == ".users[].email"
    assert detail(b, "types") == "null (1), string (1)"
    assert detail(b, "present in") == "2 of 3 objects"
    assert detail(b, "samples") == '"c@x.org"'
    with pytest.raises(JqMagicError) as exc:
        b.select(".nope")
    assert exc.value.code == "NOT_FOUND" and b.selected == ".users[].email"


def test_rows_come_in_windows_so_100k_keys_stay_cheap():
    started = time.perf_counter()
    b = SchemaBrowser(value={f"k{i}": i for i in range(100_000)})
    built = time.perf_counter() - started
    assert b.row_count == 100_001 and len(b.rows) == 80
    assert b.rows[0]["size"] == "{100,000 keys}"
    started = time.perf_counter()
    b.set_state({"window": [60_000, 50]})
    scrolled = time.perf_counter() - started
    assert [r["i"] for r in b.rows] == list(range(60_000, 60_050))
    assert b.rows[0]["id"] == ".k59999"
    assert len(json.dumps(b.get_state()["rows"])) < 20_000  # what crosses to the view
    assert scrolled < 0.05, scrolled
    assert built < 10, built


def test_search_finds_keys_and_values_and_narrows_the_tree():
    b = SchemaBrowser(value=DOC)
    b.set_state({"search": "LIGHT"})
    assert b.matches == [{"id": ".users[].settings.theme", "where": "/users/1/settings/theme",
                          "match": '"light"', "pointer": "/users/1/settings/theme",
                          "path": ".users[1].settings.theme"}]
    assert ids(b) == [".", ".users", ".users[]", ".users[].settings",
                      ".users[].settings.theme"]
    assert b.search_note == "1 match in keys and values"
    b.set_state({"search": "emai"})
    assert [m["id"] for m in b.matches] == [".users[].email", ".users[].email"]
    b.set_state({"search": ""})
    assert ".total" in ids(b) and b.matches == []


def test_the_jq_box_runs_on_the_selected_node_bounded():
    b = SchemaBrowser(value=DOC, max_results=2)
    b.set_state({"selected": ".users[]", "query": ".id * 10", "run_requests": 1})
    assert not b.busy
    assert b.output.count("class='jqmagic-result'") == 2  # a stream, bounded to 2
    assert "Showing 2 of 3 results" in b.output


def test_the_jq_box_reports_the_users_own_program_and_one_hint():
    b = SchemaBrowser(value=DOC)
    b.select(".users[]")
    b.query = ".id |"
    shown = b.run_query()
    assert "unexpected end of file" in shown and "unexpected ')'" not in shown
    assert shown.splitlines()[1].strip() == ".id |"  # the caret line is under its own text
    b.query = ".nmae"
    shown = b.run_query()
    assert shown.count("did you mean .users[].name?") == 1 and "Shape:" not in shown
    b.query = 'error("boom")'
    assert "QUERY_ERROR" in b.run_query() and "jqmagic-error" in b.output


def test_paths_of_a_multi_document_yaml_work_in_jq(tmp_path):
    path = tmp_path / "install.yaml"
    path.write_text(MULTI_YAML)
    b = SchemaBrowser(str(path))
    assert ids(b)[:4] == [".", ".apiVersion", ".kind", ".metadata"]
    b.select(".metadata.name")
    assert detail(b, "jq path") == ".metadata.name"
    assert detail(b, "JSON Pointer") == "/metadata/name"
    assert detail(b, "input") == "number 1 of 2"
    assert query(".kind", file=str(path)).values == ["Service", "Deployment"]
    b.set_state({"selected": ".kind", "query": "ascii_downcase", "run_requests": 1})
    assert "&quot;deployment&quot;" in b.output


def test_json_lines_streamed_and_searched_in_samples(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(json.dumps({"level": lv, "n": i})
                              for i, lv in enumerate(["info", "error", "info"])))
    b = SchemaBrowser(file=path, stream=True)
    assert ids(b) == [".", ".level", ".n"]
    b.select(".level")
    assert detail(b, "jq path") == ".level"
    b.set_state({"search": "err"})
    assert b.matches == [{"id": ".level", "where": ".level", "match": '"error"'}]
    assert b.search_note == "1 match in keys and sample values"


def test_the_snapshot_shows_the_open_tree_and_the_selection():
    b = SchemaBrowser(value={"price": "$5", "users": [{"name": "a"}]})
    b.select(".users[].name")
    html = b.snapshot_html()
    assert f"data-uid='{b.uid}'" in html and "tex2jax_ignore" in html
    assert "<mark>        name  <i>string</i>" in html.replace("<b>", "").replace("</b>", "")
    assert "<code>/users/0/name</code>" in html
    assert "$" not in html  # money stays money
    assert "<pre" in html and "white-space" not in html  # layout that survives sanitizers


def test_the_snapshot_opens_the_first_levels_and_counts_its_rows():
    b = SchemaBrowser(value={"total": 3, "users": DOC["users"]})
    b.set_state({"opened": ["."]})  # the live tree: only the root open
    text = b._snapshot_bundle()["text/plain"]
    lines = text.splitlines()
    rows = lines[1:lines.index("JSON Pointer: (the root)")]
    assert lines[0] == f"Schema of a Python value: {len(rows)} rows"
    assert "      theme  string" in text and "    ▾ settings  object" in text  # keys in view
    wide = SchemaBrowser(value={f"k{i}": {"a": i} for i in range(1000)})
    head = wide._snapshot_bundle()["text/plain"].splitlines()[0]
    assert head == "Schema of a Python value: the first 200 rows"
    assert "… more rows" in wide.snapshot_html()
    assert "rows shown" not in repr(wide)  # the text form of the live view never goes stale
    b.set_state({"search": "dark"})  # the live tree shows the way to the hits only
    assert ".total" not in ids(b) and "total  number" in b._snapshot_bundle()["text/plain"]


def test_displayed_it_leaves_a_snapshot_that_follows_the_tree(ip, monkeypatch):
    published, updates = [], []

    def publish(data, metadata=None, transient=None, update=False, **kw):
        (updates if update else published).append(data)

    monkeypatch.setattr(ip.display_pub, "publish", publish)
    b = SchemaBrowser(value=DOC)
    b._ipython_display_()
    assert "application/vnd.jupyter.widget-view+json" in published[0]
    assert "<b>total</b>" in published[1]["text/html"]
    b.select(".users[].id")
    assert "<b>id</b>" in updates[-1]["text/html"]


@pytest.mark.skipif(not CORPUS_JSON.is_dir(), reason=f"corpus not found at {CORPUS_JSON}")
def test_corpus_file_and_pointer():
    b = SchemaBrowser(CORPUS_JSON / "geojson/world-countries.geo.json", path="/features")
    assert b.selected == ".features"
    b.select(".features[].properties.name")
    assert detail(b, "present in") == "180 of 180 objects"
    assert detail(b, "JSON Pointer") == "/features/0/properties/name"
    b.query = "ascii_downcase"
    assert '"afghanistan"' in b.run_query()


def test_import_jqmagic_does_not_import_widgets():
    import subprocess
    import sys

    code = ("import sys, jqmagic\n"
            "assert 'ipywidgets' not in sys.modules and 'anywidget' not in sys.modules\n"
            "assert jqmagic.SchemaBrowser.__name__ == 'SchemaBrowser'\n"
            "assert 'anywidget' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_the_view_module_ships_in_the_package():
    from importlib.resources import files

    js = files("jqmagic.notebook.widget").joinpath("tree.js").read_text()
    assert "export default" in js and "data-lm-suppress-shortcuts" in js
    assert SchemaBrowser(value=1).get_state()["_esm"] == js


def test_a_node_opened_during_a_search_shows_its_children():
    b = SchemaBrowser(value=DOC)
    b.set_state({"search": "settings"})
    assert ids(b) == [".", ".users", ".users[]", ".users[].settings"]
    b.set_state({"opened": [*b.opened, ".users[].settings"]})
    assert ids(b)[-2:] == [".users[].settings.theme", ".users[].settings.beta"]


def test_a_chosen_match_shows_where_it_is_in_both_path_forms():
    b = SchemaBrowser(value=DOC)
    b.set_state({"search": "dark"})
    first, second = b.matches
    assert b.hit == first and b.selected == first["id"]  # a new search chooses its first
    b.set_state({"hit": second, "selected": second["id"]})
    assert b.details[:4] == [["this match", '"dark"'],
                             ["jq path", ".users[2].settings.theme"],
                             ["JSON Pointer", "/users/2/settings/theme"],  # the same value
                             ["node", ".users[].settings.theme (every value here)"]]
    row = next(r for r in b.rows if r["id"] == second["id"])
    assert row["sample"] == '"dark"'  # the value found
    b.set_state({"hit": first})  # the same node, another match: its details follow
    assert b.details[1:3] == [["jq path", ".users[0].settings.theme"],
                              ["JSON Pointer", "/users/0/settings/theme"]]
    b.set_state({"search": "light"})  # a new search: the old hit is gone from the details
    assert b.details[1] == ["jq path", ".users[1].settings.theme"]
    b.set_state({"search": "no such text"})
    assert b.hit == {} and b.details[0][0] == "JSON Pointer"
    b.set_state({"selected": ".total"})
    assert b.details[0][0] == "JSON Pointer"


RECORDS = 200_000


@pytest.fixture(scope="module")
def records():
    from jqmagic import samples

    found = samples.repos(RECORDS)
    found[RECORDS - 3]["owner"]["login"] = "needle-deep"  # depth 2 of the last records
    return SchemaBrowser(value=found)


def test_search_reaches_depth_two_of_200k_records_with_counts_and_paths(records):
    b = records
    b.set_state({"search": "NEEDLE-deep"})  # found within the first 2 s, whatever the load
    assert b.matches == [{"id": ".[].owner.login", "where": f"/{RECORDS - 3}/owner/login",
                          "match": '"needle-deep"', "pointer": f"/{RECORDS - 3}/owner/login",
                          "path": f".[{RECORDS - 3}].owner.login"}]
    while "Enter searches on" in b.search_note:  # a busy machine: the rest of the columns
        b.search_on()
    assert b.search_note == "1 match in keys and values"
    b.set_state({"search": "margaret"})
    while "Enter searches on" in b.search_note:
        b.search_on()
    assert b.search_note.endswith(" in keys and values (the first 200 listed)")
    count = int(b.search_note.split()[0].replace(",", ""))
    assert count == sum(r["owner"]["login"] == "margaret" for r in b._tree.value) + \
        sum("margaret" in r["full_name"] for r in b._tree.value)


def test_a_chosen_hit_is_what_copy_and_the_jq_box_act_on():
    from jqmagic import samples

    found = samples.repos(300)
    found[297]["owner"]["login"] = "needle-deep"
    b = SchemaBrowser(value=found)
    b.set_state({"search": "needle-deep"})
    b.choose(0)
    assert b.selected == ".[].owner.login"
    assert b.details[1] == ["jq path", ".[297].owner.login"]
    b.query = "ascii_upcase"
    assert b.run_query().startswith('"NEEDLE-DEEP"')
    assert "a stream" not in b.output
    b.set_state({"hit": {}})  # moved away from the hit: the node again, every element
    assert "Showing 20 of 300 results" in b.run_query()


def test_a_search_out_of_time_goes_on_where_it_stopped(monkeypatch):
    from jqmagic.core.browsing import model

    doc = {"a": [{"b": {"c": f"x{i}"}} for i in range(20_000)], "z": "x-last"}
    whole = SchemaBrowser(value=doc)
    whole.set_state({"search": "x1999"})
    monkeypatch.setattr(model, "SEARCH_SECONDS", 0.0)
    monkeypatch.setattr(model, "SEARCH_CLOCK", 0.0)  # once it has a match, it stops
    b = SchemaBrowser(value=doc)
    notes = []
    b.observe(lambda change: notes.append(change["new"]), "search_note")
    b.set_state({"search": "x1999"})
    # the note changed at once; the first pass went on by itself, saying how far it got,
    # until it found something
    assert notes[0] == "searching…"
    assert notes[1].startswith("searching… no match yet; 1 of 6 paths read, now at .a")
    assert b.matches and "Enter searches on" in b.search_note
    for _ in range(200):
        if "Enter searches on" not in b.search_note:
            break
        b.search_on()
    assert (b.matches, b.search_note) == (whole.matches, whole.search_note)


def test_a_search_with_matches_goes_on_by_itself_counting(monkeypatch):
    from jqmagic.core.browsing import model

    doc = {"a": [{"b": {"c": f"x{i}"}} for i in range(20_000)], "z": "x19-last"}
    monkeypatch.setattr(model, "SEARCH_SECONDS", 0.0)  # a slice a step: many notes
    b = SchemaBrowser(value=doc)
    notes = []
    b.observe(lambda change: notes.append(change["new"]), "search_note")
    b.set_state({"search": "x19"})
    going = [n for n in notes if " so far; " in n]
    assert going and going[0].startswith("searching… "), notes  # counting as it goes
    assert b.search_note.startswith("1,112 matches in keys and values"), b.search_note


def test_the_view_can_ask_whether_the_kernel_holds_the_tree(monkeypatch):
    b = SchemaBrowser(value=DOC)
    sent = []
    monkeypatch.setattr(b, "send", lambda content, buffers=None: sent.append(content))
    b._handle_custom_msg({"ping": 7}, [])
    assert sent == [{"pong": 7}]


def test_the_title_names_the_variable(ip):
    ip.user_ns["big_orders"] = [{"id": 1}]
    try:
        assert SchemaBrowser(value=ip.user_ns["big_orders"]).title == "big_orders"
        assert SchemaBrowser(value=[{"id": 1}]).title == "a Python value"  # no name
    finally:
        del ip.user_ns["big_orders"]


def test_the_snapshot_keeps_its_layout_in_nbconvert_html():
    nbformat = pytest.importorskip("nbformat", reason="nbconvert is a notebook extra")
    exporter = pytest.importorskip("nbconvert", reason="nbconvert is a notebook extra")
    b = SchemaBrowser(value=DOC)
    output = nbformat.v4.new_output("display_data", data=b._snapshot_bundle())
    cell = nbformat.v4.new_code_cell("%inspect doc --browse", outputs=[output])
    html, _ = exporter.HTMLExporter().from_notebook_node(nbformat.v4.new_notebook(cells=[cell]))
    pre = html[html.index("max-height:30em"):]  # nbconvert writes its own quotes
    pre = pre[:pre.index("</pre>")]
    assert "\n    ▾ <b>[]</b>  <i>object</i>" in pre  # indented under users, in a <pre>
    assert "\n        <b>id</b>  <i>number</i>" in pre


def test_the_jq_box_on_a_hit_of_a_variable_sends_only_the_hit(monkeypatch):
    doc = [{"id": i, "owner": {"login": f"u{i}"}} for i in range(1000)]
    b = SchemaBrowser(value=doc)
    b.set_state({"search": "u997"})
    sent = []
    real = query

    def spy(program, source=None, **kwargs):
        sent.append((program, source, kwargs.get("value")))
        return real(program, source, **kwargs)

    monkeypatch.setattr("jqmagic.core.query.query", spy)
    b.set_state({"query": "ascii_upcase", "run_requests": b.run_requests + 1})
    assert sent == [("ascii_upcase", None, "u997")]  # a few bytes, not the 1000 records
    assert "U997" in b.output


def test_a_file_browsed_again_unchanged_is_not_read_again(tmp_path):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(DOC))
    first, again = SchemaBrowser(file=str(path)), SchemaBrowser(file=str(path))
    assert again._tree.value is first._tree.value  # kept for this version of the file
    assert again._tree.entries["."].node is first._tree.entries["."].node
    path.write_text(json.dumps({**DOC, "total": 4}))
    changed = SchemaBrowser(file=str(path))
    assert changed._tree.value["total"] == 4


def test_integers_past_64_bits_keep_their_digits(tmp_path):
    path = tmp_path / "big.json"
    path.write_text('{"n": 18446744073709551617, "s": "x"}')
    b = SchemaBrowser(file=str(path))
    b.set_state({"search": "18446744073709551617"})
    assert [m["pointer"] for m in b.matches] == ["/n"]  # orjson would have made a float


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_the_selected_row_reads_at_wcag_aa_in_both_themes():
    import re
    from pathlib import Path

    import jqmagic.notebook.widget

    css = (Path(jqmagic.notebook.widget.__file__).parent / "tree.css").read_text()
    rule = re.search(r"\.jqm-row\.jqm-selected, \.jqm-match\.jqm-current \{([^}]*)\}", css)
    colours = dict(re.findall(r"(background|color): (#[0-9a-f]{3,6})", rule.group(1)))
    full = {k: v if len(v) == 7 else "#" + "".join(c * 2 for c in v[1:])
            for k, v in colours.items()}
    # fixed colours (no theme variable): the light and the dark theme show the same pair
    assert "var(" not in rule.group(1)
    light, dark = sorted((_luminance(full["color"]), _luminance(full["background"])),
                         reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5


def test_statistics_are_read_when_a_node_is_first_shown():
    doc = [{"n": None}, {"n": 5}, {"n": 2}, {"n": "x"}]
    b = SchemaBrowser(value=doc)
    assert b._tree.entries["."].node.profile is None  # the tree opened without them
    row = next(r for r in b.rows if r["id"] == ".[].n")
    assert row["sample"] == "5"  # the first value that is not null
    b.select(".[].n")
    assert (detail(b, "min"), detail(b, "max"), detail(b, "distinct")) == ("2", "5", "3")
    assert detail(b, "samples") == '5, 2, "x"'


# -- the jq box as the user types: offers and a live preview ----------------------------------
def test_the_jq_box_offers_keys_of_the_selected_node_with_type_and_presence():
    b = SchemaBrowser(value=DOC)
    b.select(".users[]")
    offers = b.offers(".em")
    assert (offers["start"], offers["end"]) == (0, 3)
    assert offers["items"] == [{"text": ".email", "kind": "key",
                                "type": "null|string, in 2 of 3"}]
    assert [o["text"] for o in b.offers(".settings.")["items"]] == [".theme", ".beta"]
    assert b.offers("select(.na", 10)["items"][0]["text"] == ".name"
    piped = [o["text"] for o in b.offers(". | ma")["items"]]
    assert "map(" in piped and "max_by(" in piped
    b.select(".")  # the root's keys now, and a key that needs quoting comes quoted
    assert [o["text"] for o in b.offers(".")["items"]] == [".total", ".users"]
    assert SchemaBrowser(value={"a-b": 1}).offers(".")["items"][0]["text"] == '."a-b"'


def test_the_jq_box_offers_read_the_tree_never_the_data(tmp_path, monkeypatch):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(DOC))
    b = SchemaBrowser(file=str(path))

    def never(*args, **kwargs):
        raise AssertionError("read again for an offer")

    monkeypatch.setattr("jqmagic.core.complete.shapes.shape_of", never)
    monkeypatch.setattr("jqmagic.core.query.query", never)
    b.select(".users[]")
    for typed in (".", ".s", ".settings.", ".settings.th"):  # a key at a time
        assert b.offers(typed)["items"]
    streamed = SchemaBrowser(file=str(path), stream=True)  # a big file's streamed shape
    streamed.select(".users[]")
    assert streamed.offers(".se")["items"][0]["type"] == "object, in all 3"
    lines = tmp_path / "doc.jsonl"  # each line an input: `.` is one line
    lines.write_text('{"a": 1}\n{"a": 2, "b": 3}\n')
    assert [o["type"] for o in SchemaBrowser(file=str(lines)).offers(".")["items"]] == [
        "number, in all 2", "number, in 1 of 2"]


def test_the_preview_shows_the_first_results_and_their_count(monkeypatch):
    b = SchemaBrowser(value=DOC, max_results=2)
    b.select(".users[]")

    def never():
        raise AssertionError("a preview stored a payload")

    monkeypatch.setattr("jqmagic.core.payloads.reserve", never)  # redrawn at the next key
    shown = b.preview(".id * 10")
    assert shown["status"].startswith("3 results, the first 2 shown (")
    assert "Showing 2 of 3 results" in shown["html"] and "payload" not in shown["html"]
    assert shown["html"].count("class='jqmagic-result'") == 2 and ">10<" in shown["html"]
    assert b.preview("empty")["status"].startswith("no results")
    assert b.output == ""  # a preview is no run: the output trait is Enter's


def test_the_preview_points_at_the_error_in_the_box():
    b = SchemaBrowser(value=DOC)
    b.select(".users[]")
    shown = b.preview("  .id | (")
    assert shown["error"].startswith("INVALID_QUERY") and "users" not in shown["error"]
    assert shown["column"] == 8  # under the "(" the user typed (the box's own column)
    assert b.preview(".id | foo")["column"] == 6
    own = b.preview('error("Cannot find the user")')
    assert own["column"] is None and "raised this error itself" in own["error"]


def test_the_view_asks_and_each_answer_carries_its_generation(monkeypatch):
    b = SchemaBrowser(value=DOC)
    sent = []
    monkeypatch.setattr(b, "send", lambda content, buffers=None: sent.append(content))
    b.select(".users[]")
    b._handle_custom_msg({"complete": {"gen": 4, "text": ".na", "cursor": 3}}, [])
    assert sent == [{"offered": {"gen": 4, "start": 0, "end": 3, "more": 0, "items": [
        {"text": ".name", "kind": "key", "type": "string, in 1 of 3"}]}}]
    b._handle_custom_msg({"complete": {"gen": 5, "text": ".na", "cursor": "x"}}, [])
    assert sent[1]["offered"]["end"] == 3  # a cursor that is no number: the text's end
    del sent[1]
    b._handle_custom_msg({"preview": {"gen": 5, "text": ".name"}}, [])
    b._previews.wait()
    assert sent[1]["previewed"]["gen"] == 5 and "ann" in sent[1]["previewed"]["html"]
    # the program and the node it ran on: the view draws it only while both still hold
    assert (sent[1]["previewed"]["program"], sent[1]["previewed"]["node"]) == (
        ".name", ".users[]")


def test_a_preview_superseded_by_the_next_key_is_never_sent():
    from jqmagic.core.browsing.jqbox import Previews

    started, release, sent = threading.Event(), threading.Event(), []

    def answer(request):
        if request["gen"] == 1:  # a slow program: keys come meanwhile
            started.set()
            release.wait(10)
        return {"text": request["text"]}

    previews = Previews(answer, sent.append)
    previews.ask({"gen": 1, "text": ".a"})
    assert started.wait(10)
    for gen, text in ((2, ".ab"), (3, ".abc")):  # the waiting one replaced, never run
        previews.ask({"gen": gen, "text": text})
    release.set()
    previews.wait()
    assert sent == [{"gen": 3, "text": ".abc"}]


def test_the_caret_column_is_read_from_the_errors_excerpt():
    from jqmagic.core.browsing.jqbox import caret_column

    error = JqMagicError("INVALID_QUERY", "x", detail="    .a | (\n          ^")
    assert caret_column(error, ".a | (") == 6
    assert caret_column(error, ".b | (") is None  # not this program's excerpt
    assert caret_column(JqMagicError("QUERY_ERROR", "x"), ".a") is None
    cut = JqMagicError("INVALID_QUERY", "x", detail="    ...a | (\n             ^")
    assert caret_column(cut, "x" * 200 + ".a | (") is None
