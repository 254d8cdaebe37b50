"""The notebook's words (issue 56): plurals, and no absolute machine path in an output
(a cut result names its payload by id and the magic that reads it)."""

from __future__ import annotations

import os

from jqmagic.notebook.display import payload_words, query_bundle


def test_a_cut_output_names_its_payload_by_id_and_the_magic_that_reads_it(ip, run_cell,
                                                                          capsys):
    ip.user_ns["xs"] = list(range(500))
    shown = run_cell("%jq '.[]' xs")
    text = query_bundle(shown)[0]["text/plain"]
    pid = text.split("payload ")[1].split()[0]
    assert f"(read it with %jq . --payload {pid})" in text
    assert os.path.expanduser("~") not in text and "payload.json" not in text
    again = run_cell(f"%jq -s length --payload {pid}")
    assert again.value == 500  # the command it names reads it


def test_stored_values_are_counted_in_words(ip, run_cell, capsys):
    ip.user_ns["xs"] = [1, 2, 3]
    run_cell("%jq '.[]' xs -o many")
    run_cell("%jq '.[0]' xs -o one")
    said = capsys.readouterr().out
    assert "Stored 3 results in many." in said and "Stored 1 result in one." in said


def test_only_the_payload_s_path_is_rewritten():
    line = ("Truncated. The full result is in payload 0123456789abcdef0123456789abcdef "
            "(/home/ann/.cache/jqmagic/payloads/0123456789abcdef0123456789abcdef/payload"
            ".json), one result a line. Refine the query (e.g. .items[:100]).")
    assert payload_words(line) == (
        "Truncated. The full result is in payload 0123456789abcdef0123456789abcdef (read "
        "it with %jq . --payload 0123456789abcdef0123456789abcdef), one result a line. "
        "Refine the query (e.g. .items[:100]).")
