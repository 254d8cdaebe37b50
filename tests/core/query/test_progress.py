"""Parsing a big file is reported as it happens and does not count against the program's
timeout (the memory cap bounds it)."""

from __future__ import annotations

import json

from jqmagic import query
from jqmagic.core.query import progress
from jqmagic.core.query.run import clear_cache
from jqmagic.core.settings import settings


def test_parsing_is_reported_and_not_timed(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_text(json.dumps([{"id": i, "name": f"n{i}", "tags": ["a", "b"]}
                                for i in range(400_000)]))  # about 15 MB: parses in > 0.1 s
    events: list[dict] = []
    monkeypatch.setattr(progress, "reporter", events.append)
    clear_cache()
    assert query("length", str(path), timeout=0.05).values == [400_000]  # the fast path
    monkeypatch.setattr(settings, "fast_path", False)
    assert query("length", str(path), timeout=0.05).values == [400_000]  # libjq's parse
    monkeypatch.setattr(settings, "fast_path", True)
    assert [e["event"] for e in events] == ["parsing", "parsed"] * 2
    assert events[0]["bytes"] == path.stat().st_size and events[0]["label"] == str(path)
    events.clear()
    assert query("length", str(path), timeout=0.05).values == [400_000]  # parsed already
    assert events == []


def test_the_terminal_reporter_shows_big_files_only(capsys, monkeypatch):
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    reporter = progress.Reporter()
    reporter({"event": "parsing", "label": "small.json", "bytes": 1000})
    assert capsys.readouterr().err == ""
    size = progress.SHOWN_FROM_BYTES
    reporter({"event": "parsing", "label": "big.json", "bytes": size})
    reporter({"event": "parsed", "label": "big.json", "bytes": size})
    err = capsys.readouterr().err
    assert "Parsing big.json (52 MB)..." in err and "Parsed big.json (52 MB) in" in err


def test_the_notebook_shows_one_line_that_updates(ip, monkeypatch):
    from jqmagic.notebook.display import NotebookProgress

    shown: list[tuple[str, str]] = []

    class Handle:
        def update(self, data, raw):
            shown.append(("update", data["text/plain"]))

    def display(data, raw, display_id):
        shown.append(("display", data["text/plain"]))
        return Handle()

    monkeypatch.setattr("IPython.display.display", display)
    assert isinstance(progress.reporter, NotebookProgress)  # %load_ext jqmagic set it
    size = progress.SHOWN_FROM_BYTES
    progress.reporter({"event": "parsing", "label": "big.json", "bytes": size})
    progress.reporter({"event": "parsed", "label": "big.json", "bytes": size})
    assert [kind for kind, _ in shown] == ["display", "update"]
    assert shown[0][1].startswith("Parsing big.json") and shown[1][1].startswith("Parsed")


def test_yaml_is_shown_from_a_smaller_size(tmp_path, monkeypatch):
    path = tmp_path / "list.yaml"
    path.write_text("".join(f"- id: {i}\n  name: n{i}\n" for i in range(2_000)))
    events: list[dict] = []
    monkeypatch.setattr(progress, "reporter", events.append)
    clear_cache()
    assert query("length", str(path)).values == [2_000]
    assert [(e["event"], e["format"]) for e in events] == [("parsing", "yaml"),
                                                           ("parsed", "yaml")]
    size = progress.SHOWN_FROM_BYTES // 40  # a YAML file a JSON file this size would not show
    assert progress.worth_showing({"bytes": size, "format": "yaml"})
    assert not progress.worth_showing({"bytes": size, "format": "json"})
