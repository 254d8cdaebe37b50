"""Tab in %jq / %%jq: in a real IPython shell (its completer API), and through a real
kernel's complete_request (what JupyterLab sends)."""

from __future__ import annotations

import json
import time

import pytest
from IPython.core.completer import provisionalcompleter

from jqmagic.notebook.completer import read_line, words

KUBE = {"apiVersion": "v1", "kind": "List",
        "items": [{"metadata": {"name": "a"}, "spec": {}}, {"metadata": {"name": "b"}}]}
PEOPLE = [{"name": "a", "address": {"city": "x"}}, {"name": "b", "age": 2}]


def completions(ip, text: str, offset: int | None = None) -> list[tuple]:
    offset = len(text) if offset is None else offset
    with provisionalcompleter():
        return [(c.text, c.type.replace("\u00a0", " "), text[c.start:c.end])
                for c in ip.Completer.completions(text, offset)]


@pytest.fixture
def data(ip, tmp_path):
    ip.user_ns.update(kube=KUBE, orders=[{"id": 1, "total": 9.5}, {"id": 2}])
    path = tmp_path / "people.json"
    path.write_text(json.dumps(PEOPLE))
    return path


def test_keys_from_a_variable_with_the_source_after_the_cursor(ip, data):
    text = "%jq '.items[0].me' kube"
    assert completions(ip, text, len("%jq '.items[0].me")) == [
        (".metadata", "object, in all 2", ".me")]


def test_keys_from_a_file_in_select(ip, data):
    text = f"%jq '.[] | select(.ad' {data} -c"
    assert completions(ip, text, len("%jq '.[] | select(.ad")) == [
        (".address", "object, in 1 of 2", ".ad")]


def test_builtins_with_their_arity(ip, data):
    found = {text: kind for text, kind, _ in completions(ip, "%jq '.items | ma")}
    assert found["map("] == "map/1" and found["max_by("] == "max_by/1"
    assert "max" in found  # max/0: no parenthesis


def test_a_cell_program_reads_the_source_on_the_magic_line(ip, data):
    assert completions(ip, "%%jq orders -c\n.[0].") == [
        (".id", "number, in all 2", "."), (".total", "number, in 1 of 2", ".")]
    assert completions(ip, "%%jq orders\nmap(.t") == [(".total", "number, in 1 of 2", ".t")]


def test_names_formats_and_source_words(ip, data):
    found = completions(ip, "x = %jq '$re' --arg region eu kube", len("x = %jq '$re"))
    assert ("$region", "--arg", "$re") in found
    assert completions(ip, "%jq -r '.[] | @cs' kube", len("%jq -r '.[] | @cs")) == [
        ("@csv", "format", "@cs")]
    folder = str(data.parent)
    assert completions(ip, f"%jq . {folder}/pe") == [
        (f"{folder}/people.json", f"file, {data.stat().st_size} bytes", f"{folder}/pe")]
    assert ("kube", "Python dict, 3 keys", "ku") in completions(ip, "%jq . ku")


def test_python_is_left_to_python(ip, data):
    found = completions(ip, "import jso")
    assert ("json", "module", "jso") in found
    assert completions(ip, "%jq '.items' 'https://example.com/x.json'",
                       len("%jq '.items")) == []


def test_the_line_is_read_as_the_magic_reads_it():
    found = words("""'.a | "x y"' data.json --arg n "v w" --parallel 2 -s""", 0)
    assert [w.text for w in found] == ['.a | "x y"', "data.json", "--arg", "n", "v w",
                                       "--parallel", "2", "-s"]
    line = read_line(found)
    assert [w.text for w in line.positional] == ['.a | "x y"', "data.json"]
    assert line.names == {"n": "--arg"} and line.flags["slurp"] is True
    assert words("'.a['", 4)[0].places == [5, 6, 7, 9]  # an open quote runs to the end


def test_through_a_kernel_complete_request(tmp_path):
    from jupyter_client.manager import start_new_kernel

    path = tmp_path / "kube.json"
    path.write_text(json.dumps(KUBE))
    manager, client = start_new_kernel(kernel_name="python3", extra_arguments=[
        "--HistoryManager.enabled=False"], cwd=str(tmp_path))
    try:
        client.execute_interactive("%load_ext jqmagic\n"
                                   "records = [{'address': 1, 'name': 2}] * 300",
                                   timeout=60)

        def ask(code: str, cursor: int | None = None) -> tuple[list[str], float]:
            began = time.perf_counter()
            reply = client.complete(code, len(code) if cursor is None else cursor,
                                    reply=True, timeout=60)
            return reply["content"]["matches"], time.perf_counter() - began

        assert ask("%jq '.items[0].me' kube.json", len("%jq '.items[0].me"))[0] == [
            ".metadata"]
        matches, seconds = ask("%jq '.items[1].met' kube.json", len("%jq '.items[1].met"))
        assert matches == [".metadata"]
        assert seconds < 1.0, seconds  # cached: the bench measures the real figure
        assert ask("%jq '.[] | select(.ad' records",
                   len("%jq '.[] | select(.ad"))[0] == [".address"]
        assert {"map(", "max_by("} <= set(ask("%jq '.items | ma")[0])
        reply = client.complete("%%jq records\n.[0].", reply=True, timeout=60)["content"]
        assert reply["matches"] == [".address", ".name"]
        types = reply["metadata"]["_jupyter_types_experimental"]
        # one line in JupyterLab's menu (it wraps a type at a space, lines drawn over others)
        assert types[0]["type"] == "number,\u00a0in\u00a0all\u00a0300"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_a_cell_on_a_file_makes_its_shape_for_the_first_tab(ip, run_cell, tmp_path,
                                                             monkeypatch):
    from jqmagic.core.complete import forget, shapes

    forget()
    path = tmp_path / "warm.json"
    path.write_text(json.dumps({"warmed": {"up": 1}}))
    run_cell(f"%jq '.warmed' {path} -c")
    for _ in range(100):  # the shape is made in a thread, by the worker
        if shapes._kept:
            break
        time.sleep(0.05)
    assert len(shapes._kept) == 1

    def not_again(*_):
        raise AssertionError("the shape was made again")

    monkeypatch.setattr(shapes, "_worker_shape", not_again)
    assert completions(ip, f"%jq '.warmed.' {path}", len("%jq '.warmed.")) == [
        (".up", "number, in all 1", ".")]
