"""Inside an unclosed %jq program Tab offers keys, never files (issue 56: `%jq '.[0].`
typed left to right offered `.ipynb_checkpoints/` and put it in the program)."""

from __future__ import annotations

from IPython.core.completer import provisionalcompleter


def test_an_unclosed_program_gets_no_files(ip, tmp_path, monkeypatch):
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / "data.json").write_text('[{"name": "a"}]')
    monkeypatch.chdir(tmp_path)
    ip.run_line_magic("load_ext", "jqmagic")
    with provisionalcompleter():
        found = list(ip.Completer.completions("%jq '.[0].", len("%jq '.[0].")))
        # what is typed, and why there are no keys yet: no file, no Python name
        assert [(c.text, c.type.replace("\u00a0", " ")) for c in found] == [
            (".", "no keys known here: they come from the data named after the program")]
        # the same program with its source: the keys
        line = "%jq '.[0].' data.json"
        texts = [c.text for c in ip.Completer.completions(line, len("%jq '.[0]."))]
        assert texts == [".name"]
