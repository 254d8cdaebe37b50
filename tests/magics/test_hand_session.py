"""What a person driving JupyterLab by hand met (the tour, then their own cells), each
checked where it was decided: the tree's selection when a node above it closes, what the
jq box's preview says it ran on, ``--to json`` over a value too big for the viewer, and a
program whose double quotes its own strings cut."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError

from jqmagic.notebook.widget import SchemaBrowser

DOC = {"users": [{"id": 1, "settings": {"theme": "dark"}},
                 {"id": 2, "settings": {"theme": "light"}}]}


def test_closing_a_node_above_the_selection_selects_it():
    b = SchemaBrowser(value=DOC)
    b.select(".users[].settings.theme")
    b.collapse(".users[]")  # its caret clicked: the selection was left hidden under it
    assert b.selected == ".users[]"
    assert dict(b.details)["jq path"] == ".users[]"
    assert [r["id"] for r in b.rows][b.cursor] == ".users[]"
    b.collapse(".")  # the root closed: it is what is selected
    assert b.selected == "." and b.cursor == 0
    b.expand(".")
    b.select(".users")
    b.collapse(".users[]")  # not above the selection: it stays where it was
    assert b.selected == ".users"


def test_the_preview_says_it_ran_on_the_chosen_match_not_on_every_value():
    b = SchemaBrowser(value=DOC)
    b.search = "light"
    assert b.selected == ".users[].settings.theme"
    answer = b.preview("ascii_upcase")
    assert answer["on"] == ".users[1].settings.theme"  # was said to run on .users[]...
    assert answer["node"] == ".users[].settings.theme" and "LIGHT" in answer["html"]
    b.search = ""
    b.select(".users[].id")
    assert b.preview(".")["on"] == ".users[].id"


def test_to_json_over_a_value_past_the_viewer_says_its_bound_line_once(ip, monkeypatch):
    shown = []
    monkeypatch.setattr(ip.display_pub, "publish",
                        lambda data, metadata=None, **kw: shown.append(data))
    ip.user_ns["wide"] = [{"a": i, "b": [i, i]} for i in range(30_000)]
    ip.run_cell("%jq '.' wide --to json")
    notes = [d["text/html"] for d in shown if "Truncated" in d.get("text/html", "")]
    assert len(notes) == 1 and notes[0].count("Truncated") == 1, shown
    assert "application/json" not in shown[-1]  # the plain view: the value is over the bound
    assert "Truncated" in shown[-1]["text/plain"]


@pytest.mark.parametrize("line, meant", [
    ('"select(.language == "Python")" doc -c',
     """%jq 'select(.language == "Python")' doc -c"""),
    ('-c "[.[] | select(.owner == "rob")]" doc',
     """%jq -c '[.[] | select(.owner == "rob")]' doc"""),
])
def test_double_quotes_cut_by_the_programs_own_strings_are_said(ip, line, meant):
    ip.user_ns["doc"] = [{"language": "Python", "owner": "rob"}]
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("jq", line)
    said = str(exc.value)
    assert said.startswith("INVALID_QUERY: ") and "define it first" not in said
    assert said.endswith(f"quote it with single quotes, {meant}"), said


def test_quotes_that_held_keep_jqs_own_hint(ip):
    ip.user_ns["doc"] = [{"language": "Python"}]
    for line in (r'"select(.language == \"Python\") | nope" doc', "'nope' doc"):
        with pytest.raises(UsageError) as exc:
            ip.run_line_magic("jq", line)
        assert "define it first" in str(exc.value) and "single quotes" not in str(exc.value)


def test_the_bound_lines_payload_command_never_breaks_after_its_hyphens():
    """In the jq box's narrow note the line broke as ``%jq . --`` / ``payload ID``."""
    from jqmagic.notebook.display import note_html

    note = note_html("Truncated. The full result is in payload 0a1b2c3d (read it with %jq . "
                     "--payload 0a1b2c3d), one result a line. Use --all to show everything.")
    assert ">%jq . --payload 0a1b2c3d</code>" in note
    assert "<span style='white-space:nowrap'>--all</span> to show" in note
    assert note_html("a `.[] | .a` b").count("<code") == 1  # a program in code, as before


def test_a_file_or_a_named_variable_gives_the_view_its_percent_jq_line(tmp_path, ip,
                                                                        monkeypatch):
    """The view's "copy %jq line" needs the source as a line names it: a file's path
    (quoted as a shell reads it), a variable's one name; nothing for a nameless value."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my data.json").write_text('{"a": 1}')
    assert SchemaBrowser(file="my data.json").source_word == "'my data.json'"
    ip.user_ns["records"] = [{"a": 1}]
    assert SchemaBrowser(value=ip.user_ns["records"]).source_word == "records"
    assert SchemaBrowser(value=[{"a": 2}]).source_word == ""


def test_many_small_results_with_all_keep_the_html_bounded(ip):
    """`%jq 'range(300000)' -n --all` made 9 MB of HTML (each result's block and styles,
    beside 200,000 characters of text): the tags count too, and the rest is said."""
    from jqmagic.core.settings import settings

    bound = settings.max_tokens * 4
    result = ip.run_line_magic("jq", "'range(300000)' -n --all")
    bundle, _ = ip.display_formatter.format(result)
    assert len(bundle["text/plain"]) <= bound + 200
    assert len(bundle["text/html"]) <= 2 * bound + 2_000
    assert "more past the output's bound (-o VAR keeps every result)" in bundle["text/html"]
    assert ">1</span>" in bundle["text/html"]  # the first results still shown, numbered
