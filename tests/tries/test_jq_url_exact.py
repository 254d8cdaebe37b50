"""%jq over a URL reads the answer's bytes as served, as jq reads a file: its numbers as
written (1.50, 1E+1000: it printed 1.5 and 1.797e+308, from a value parsed by Python and
dumped again), and a JSON Lines or YAML answer by its suffix or the flag (a Kubernetes
manifest's URL said 'did not return JSON')."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError

from tests.cli.dropin import ORACLE

NUMBERS = b'{"a": 1.50, "b": 100000000000000000001, "c": 1E+1000, "d": -0}\n'


def shown(ip, line: str) -> list[str]:
    return ip.run_line_magic("jq", line).printed


def test_json_numbers_as_written(web, ip, tmp_path):
    url = web.add("/n.json", NUMBERS, "application/json")
    printed = shown(ip, f"-c . {url}")
    assert printed == ['{"a":1.50,"b":100000000000000000001,"c":1E+1000,"d":-0}']
    if ORACLE.exists():  # the same as jq 1.8.2 over the same bytes
        import subprocess

        (tmp_path / "n.json").write_bytes(NUMBERS)
        jq = subprocess.run([str(ORACLE), "-c", ".", str(tmp_path / "n.json")],
                            capture_output=True, text=True, check=True).stdout
        assert printed == jq.splitlines()


def test_json_lines_and_yaml_by_suffix_or_flag(web, ip):
    lines = web.add("/e.jsonl", b'{"a": 1.50}\n{"a": 2}\n', "application/octet-stream")
    stream = web.add("/k.yaml", b"kind: A\n---\nkind: B\n", "text/plain")
    untyped = web.add("/feed", b'{"a": 1}\n{"a": 2}\n', "text/plain")
    assert shown(ip, f"-c .a {lines}") == ["1.50", "2"]
    assert shown(ip, f".kind {stream}") == ['"A"', '"B"']
    assert shown(ip, f"-c .a --jsonl {untyped}") == ["1", "2"]
    assert shown(ip, f"-c .a {untyped}") == ["1", "2"]  # values one after another, as jq reads
    yaml = web.add("/conf", b"kind: A\n", "text/plain")
    with pytest.raises(UsageError) as caught:
        ip.run_line_magic("jq", f".kind {yaml}")
    assert str(caught.value).startswith(f"PARSE_ERROR: {yaml} did not return JSON.")
    assert "--jsonl" in str(caught.value) and "--yaml" in str(caught.value)


def test_webfetch_jq_reads_the_answer_as_served(web, ip):
    url = web.add("/n.json", NUMBERS, "application/json")
    result = ip.run_line_magic("webfetch", f"{url} --jq '[.a, .c]' ")
    assert "1.50" in result.content and "1E+1000" in result.content, result.content


def test_webfetch_json_content_is_jqs_text_of_the_answer(web, ip, tmp_path):
    """The content of a JSON answer is jq's text of its bytes (1.50 stays 1.50: it was
    json.dumps of the parsed value), in lines that page as before."""
    url = web.add("/n.json", NUMBERS, "application/json")
    result = ip.run_line_magic("webfetch", url)
    lines = result.content.splitlines()
    assert lines[1:4] == ['  "a": 1.50,', '  "b": 100000000000000000001,', '  "c": 1E+1000,']
    assert result.value == {"a": 1.5, "b": 100000000000000000001, "c": float("inf"), "d": -0}
    paged = ip.run_line_magic("webfetch", f"{url} --offset 2 --limit 1")
    assert paged.content == '  "a": 1.50,' and paged.total_lines == 6
    if ORACLE.exists():
        import subprocess

        (tmp_path / "n.json").write_bytes(NUMBERS)
        jq = subprocess.run([str(ORACLE), ".", str(tmp_path / "n.json")],
                            capture_output=True, text=True, check=True).stdout
        assert result.content == jq.rstrip("\n")


def test_webfetch_json_jq_cannot_read_is_still_shown(web, ip):
    """UTF-16 JSON (Python reads it, jq does not) is shown from its parsed value."""
    url = web.add("/u.json", '{"a": "ß"}'.encode("utf-16"), "application/json")
    assert ip.run_line_magic("webfetch", url).content == '{\n  "a": "ß"\n}'


@pytest.mark.parametrize(("path", "ctype", "body", "printed"), [
    ("/package.json", "text/plain; charset=utf-8", b'{"a": 1.50}\n', ["1.50"]),
    ("/raw", "text/plain", b'[{"a": 1}]', ["[\n  1\n]"]),
    ("/stream", "application/json", b'{"a": 1.50}\n{"a": 2}\n', ["1.50", "2"]),
])
def test_json_served_as_text_or_as_a_stream_is_read_as_jq_reads_it(web, ip, path, ctype,
                                                                   body, printed):
    """raw.githubusercontent.com serves a JSON file as text/plain ('did not return JSON'),
    and an API may send JSON Lines as application/json (Python's 'Extra data')."""
    program = "map(.a)" if path == "/raw" else ".a"
    assert shown(ip, f"'{program}' {web.add(path, body, ctype)}") == printed


def test_text_that_is_no_json_is_still_refused_with_the_hint(web, ip):
    url = web.add("/notes", b"just words\n", "text/plain")
    with pytest.raises(UsageError) as caught:
        ip.run_line_magic("jq", f".a {url}")
    assert str(caught.value).startswith(f"PARSE_ERROR: {url} did not return JSON.")
