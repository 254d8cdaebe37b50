"""The sandbox: files confined to the allowed roots (symlinks, ``..``, ``~``, races), commands
off by default (and capped when on), private web addresses refused, through every face."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from jqmagic import patch, query, shape
from jqmagic.core import sandbox
from jqmagic.core.settings import settings
from jqmagic.core.sources import load_values
from jqmagic.core.web.fetch import fetch
from tests.reliability.faces import OK, cli, core, file_entries, magic, patch_entries

SECRET = '{"secret": "s3cr3t"}'


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """root/ (allowed) with inside.json and sub/; outside/ with secret.json; sandbox on."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "inside.json").write_text('{"ok": 1}')
    (outside / "secret.json").write_text(SECRET)
    settings.sandbox, settings.allowed_roots = True, [str(root)]
    return root


def rendered(out) -> str:
    return out.render() if hasattr(out, "render") else str(out)


def denied(outcome) -> bool:
    return outcome[0] == "SANDBOX_DENIED" and "s3cr3t" not in rendered(outcome[1])


ESCAPES = {
    "absolute": lambda root: str(root.parent / "outside" / "secret.json"),
    "dot-dot": lambda root: str(root / "sub" / ".." / ".." / "outside" / "secret.json"),
    "relative-dot-dot": lambda root: os.path.relpath(root.parent / "outside" / "secret.json"),
    "missing-outside": lambda root: "/etc/no-such-file.json",
    "system-file": lambda root: "/etc/passwd",
    "symlink-file": lambda root: _link(root / "link.json", root.parent / "outside/secret.json"),
    "symlink-dir": lambda root: _link(root / "linkdir", root.parent / "outside") + "/secret.json",
    "home": lambda root: "~/secret.json",
}


def _link(link: Path, target: Path) -> str:
    link.symlink_to(target)
    return str(link)


@pytest.mark.parametrize("escape", ESCAPES)
@pytest.mark.parametrize("entry", ["query", "shape", "shape-stream", "load_values", "cli-query",
                                   "cli-inspect", "%jq", "%inspect"])
def test_reads_outside_the_roots_are_denied(ip, tree, monkeypatch, escape, entry):
    monkeypatch.setenv("HOME", str(tree.parent / "outside"))
    monkeypatch.chdir(tree)
    assert denied(file_entries(ip, program=".")[entry](ESCAPES[escape](tree)))


@pytest.mark.parametrize("entry", ["query", "shape", "load_values", "cli-query", "%jq"])
def test_reads_inside_the_roots_work(ip, tree, monkeypatch, entry):
    monkeypatch.setenv("HOME", str(tree))
    monkeypatch.chdir(tree)
    for path in ("inside.json", str(tree / "sub" / ".." / "inside.json"), "~/inside.json",
                 _link(tree / "alias.json", tree / "inside.json")):
        assert file_entries(ip, program=".")[entry](path)[0] == OK


def test_a_glob_that_reaches_outside_is_denied(tree):
    _link(tree / "sub" / "escape.json", tree.parent / "outside" / "secret.json")
    assert denied(core(query, ".", file=str(tree / "**" / "*.json")))
    assert denied(core(query, ".", file=str(tree.parent / "outside" / "*.json")))


def test_the_denial_says_why_and_what_to_do(tree):
    code, error = core(query, ".", file="/etc/passwd")
    assert code == "SANDBOX_DENIED" and "outside the allowed folders" in error.message
    assert str(tree) in error.hint and "allowed_roots" in error.hint


@pytest.mark.parametrize("escape", ["absolute", "dot-dot", "symlink-file", "symlink-dir"])
@pytest.mark.parametrize("entry", ["patch", "cli-patch", "%jsonpatch"])
def test_writes_outside_the_roots_are_denied(ip, tree, escape, entry):
    assert denied(patch_entries(ip)[entry](ESCAPES[escape](tree)))
    assert (tree.parent / "outside" / "secret.json").read_text() == SECRET


def test_writes_inside_the_roots_work_and_the_payload_store_is_not_confined(tree, tmp_path):
    assert core(patch, str(tree / "inside.json"), "set", "/x", 1)[0] == OK
    result = query("range(300)", null_input=True, limit=100)  # spills past 100 results
    assert result.truncated and not str(result.payload_path).startswith(str(tree))


def test_the_environment_turns_the_sandbox_on(tree, monkeypatch):
    settings.sandbox, settings.allowed_roots = False, []
    monkeypatch.setenv("JQMAGIC_SANDBOX", "1")
    monkeypatch.setenv("JQMAGIC_ALLOWED_ROOTS", str(tree))
    assert sandbox.enabled() and sandbox.roots() == [str(tree.resolve())]
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", ".",
                          str(tree.parent / "outside" / "secret.json")],
                         capture_output=True, text=True, env=dict(os.environ))
    assert run.returncode == 2 and "error SANDBOX_DENIED" in run.stderr  # jq's for a file
    assert "s3cr3t" not in run.stdout + run.stderr and "Traceback" not in run.stderr


def flipping(link: Path, targets: list[Path], stop: threading.Event) -> threading.Thread:
    """Swap what ``link`` points to, atomically, until ``stop`` is set."""

    def flip():
        n = 0
        while not stop.is_set():
            spare = link.with_name(link.name + ".new")
            spare.unlink(missing_ok=True)
            spare.symlink_to(targets[n % 2])
            os.replace(spare, link)
            n += 1

    thread = threading.Thread(target=flip, daemon=True)
    thread.start()
    return thread


RACED = {
    "query": lambda p: query(".", file=p).values,
    "query-worker": lambda p: query("input_filename, .", file=p).values[1:],
    "load_values": lambda p: load_values(file=p),
    "shape-stream": lambda p: shape(file=p, stream=True).value["keys"],
}


@pytest.mark.parametrize("operation", RACED.values(), ids=RACED.keys())
@pytest.mark.parametrize("what", ["file", "folder"])
def test_racing_symlinks_never_leak_the_outside(tree, what, operation):
    outside = tree.parent / "outside"
    inner = tree / "real"
    inner.mkdir()
    (inner / "secret.json").write_text('{"ok": 2}')
    if what == "file":
        link, targets, path = tree / "flip.json", [inner / "secret.json",
                                                    outside / "secret.json"], tree / "flip.json"
    else:
        link, targets, path = tree / "flipdir", [inner, outside], tree / "flipdir/secret.json"
    stop = threading.Event()
    thread = flipping(link, targets, stop)
    seen = set()
    try:
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            code, out = core(operation, str(path))
            seen.add(code)
            assert "s3cr3t" not in json.dumps(out, default=str)
    finally:
        stop.set()
        thread.join()
    assert OK in seen and "SANDBOX_DENIED" in seen  # both sides of the race were met


def test_racing_a_patch_target_never_writes_outside(tree):
    outside = tree.parent / "outside"
    inner = tree / "real"
    inner.mkdir()
    (inner / "secret.json").write_text('{"ok": 2}')
    stop = threading.Event()
    thread = flipping(tree / "flipdir", [inner, outside], stop)
    try:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            assert core(patch, str(tree / "flipdir/secret.json"), "set", "/ok", 3)[0] in (
                OK, "SANDBOX_DENIED", "NOT_FOUND", "PATCH_CONFLICT", "FILE_ERROR")
    finally:
        stop.set()
        thread.join()
    assert (outside / "secret.json").read_text() == SECRET


# ---------------------------------------------------------------- exec


def test_exec_is_off_in_the_sandbox(ip, tree):
    assert denied(core(query, ".", exec="echo 1"))
    assert denied(core(load_values, exec="echo 1"))
    assert denied(core(shape, exec="echo 1"))
    assert denied(cli("query", ".", "--exec", "echo 1"))
    assert denied(magic(ip, "jq", ". -x 'echo 1'"))


def test_exec_when_allowed_has_a_timeout_and_an_output_cap(tree):
    settings.exec_allowed = True
    assert query(".", exec="echo '[1, 2]'").values == [[1, 2]]
    started = time.monotonic()
    assert core(query, ".", exec="sleep 30", timeout=1)[0] == "TIMEOUT"
    assert time.monotonic() - started < 5
    settings.exec_max_bytes = 100_000
    started = time.monotonic()
    code, error = core(query, ".", exec="yes '\"y\"'")
    assert code == "TOO_LARGE" and "100,000-byte" in error.message
    assert time.monotonic() - started < 5
    assert load_values(exec=f"head -c 200000 /dev/zero > {tree}/big.bin; echo 1") == [1]
    assert 100_000 <= (tree / "big.bin").stat().st_size < 100_000 + 512  # 512-byte blocks
    assert query(".", exec="echo '{\"a\": 1}'", yaml=True).values == [{"a": 1}]


INJECTIONS = ["$(touch {m})", "`touch {m}`", "; touch {m}", "| touch {m}", "&& touch {m}",
              "\ntouch {m}", "'; touch {m}; '"]


@pytest.mark.parametrize("sandboxed", [True, False])
@pytest.mark.parametrize("injection", INJECTIONS)
def test_no_shell_injection_through_the_magics_own_arguments(ip, tmp_path, monkeypatch,
                                                              sandboxed, injection):
    monkeypatch.chdir(tmp_path)
    settings.sandbox, settings.allowed_roots = sandboxed, [str(tmp_path)]
    marker = tmp_path / "pwned"
    word = injection.format(m=marker)
    (tmp_path / "data.json").write_text('{"a": 1}')
    q = shlex.quote
    for name, line in [("jq", f"{q('.a' + word)} data.json"), ("jq", f". {q(word)}"),
                       ("jq", f". data.json --arg v {q(word)}"), ("inspect", q(word)),
                       ("jsonpatch", f"data.json set /a {q(json.dumps(word))}"),
                       ("jsonpatch", f"{q(word)} set /a 1"), ("webfetch", q(word))]:
        outcome = magic(ip, name, line)
        assert outcome[0] == OK or outcome[0].isupper()
    for argv in (["query", ".a" + word, "data.json"], ["query", ".", word],
                 ["inspect", word], ["patch", word, "set", "/a", "1"]):
        cli(*argv)
    assert not marker.exists()


# ---------------------------------------------------------------- web


SPELLINGS = ["http://127.0.0.1:{port}/t", "http://localhost:{port}/t", "http://2130706433:{port}/t",
             "http://0177.0.0.1:{port}/t", "http://0x7f000001:{port}/t", "http://127.1:{port}/t",
             "http://[::1]:{port}/t", "http://[::ffff:127.0.0.1]:{port}/t",
             "http://[::ffff:7f00:1]:{port}/t", "http://0.0.0.0:{port}/t",
             "http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/",
             "http://[fe80::1]/", "http://224.0.0.1/", "http://[ff02::1]/", "http://10.0.0.1/",
             "http://192.168.0.1/", "http://[fd00::1]/", "http://u:pw@127.0.0.1:{port}/t?key=k"]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_private_addresses_are_refused_through_every_face(ip, web, spelling):
    settings.sandbox = True
    url = spelling.format(port=web.port)
    web.add("/t", '{"a": 1}', "application/json")
    outcomes = [core(fetch, url, headers={"Authorization": "Bearer tok3n"}),
                cli("fetch", url, "-H", "Authorization: Bearer tok3n"),
                cli("fetch", url, "--json"),
                magic(ip, "webfetch", f"{shlex.quote(url)} -H 'Authorization: Bearer tok3n'"),
                magic(ip, "jq", f".a {shlex.quote(url)}")]
    for code, out in outcomes:
        text = rendered(out)
        assert code == "SANDBOX_DENIED" or (code == "NETWORK_ERROR" and "DNS" in text), text
        assert "tok3n" not in text and "pw" not in text.replace("pw@", "") and "key=k" not in text
    assert web.seen == []  # nothing reached the server


def test_every_redirect_is_checked_and_caps_hold(web):
    settings.sandbox = True
    web.add("/big", "x" * 5000, "text/plain")
    hop = web.redirect("/hop", f"http://127.0.0.2:{web.port}/big")
    assert core(fetch, hop, allowed_addresses=("127.0.0.1",))[0] == "SANDBOX_DENIED"
    assert [s.path for s in web.seen] == ["/hop"]
    settings.sandbox = False
    assert core(fetch, web.url("/big"), max_bytes=1000)[0] == "TOO_LARGE"
    assert cli("fetch", web.url("/big"), "--max-bytes", "1000")[0] == "TOO_LARGE"
