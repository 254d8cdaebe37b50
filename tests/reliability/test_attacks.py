"""Attacks from issue 16, each tried through the core and, where it reaches them, the agent
tools: every one ends in a coded error or a bounded answer, reads nothing outside the
roots, sends nothing to a refused address and prints no secret."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest

from jqmagic import JqMagicError, fetch, query
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings


@pytest.fixture
def sandbox(monkeypatch, tmp_path):
    """The sandbox on, rooted in the test's folder, as an agent's kernel runs."""
    monkeypatch.setattr(settings, "sandbox", True)
    monkeypatch.setattr(settings, "allowed_roots", [str(tmp_path)])
    monkeypatch.setattr(settings, "private_addresses", False)
    yield tmp_path
    monkeypatch.setattr(settings, "sandbox", False)
    shared_worker().stop()  # the next test's worker keeps the whole environment


@pytest.mark.parametrize("spelling", [
    "http://127.0.0.1:{port}\\@8.8.8.8/secret.json",
    "http://127.0.0.1:{port}/secret.json",
    "http://127.1:{port}/secret.json",
    "http://0x7f000001:{port}/secret.json",
    "http://[::ffff:127.0.0.1]:{port}/secret.json",
])
def test_ssrf_spellings_never_reach_the_local_server(sandbox, web, loopback_only, spelling):
    web.add("/secret.json", '{"secret": 1}', "application/json")
    port = web.url().split(":")[2].split("/")[0]
    with pytest.raises(JqMagicError) as info:
        fetch(spelling.format(port=port))
    assert info.value.code in ("SANDBOX_DENIED", "INVALID_URL", "NETWORK_ERROR")
    assert web.seen == []  # nothing was sent to the refused address


def test_a_redirect_to_a_confusing_url_is_checked_on_the_hop(monkeypatch, web, loopback_only):
    target = web.add("/secret.json", '{"secret": 1}', "application/json")
    hop = web.redirect("/hop", target.replace("http://127.0.0.1", "http://127.0.0.1\\@8.8.8.8"))
    with pytest.raises(JqMagicError) as info:
        fetch(hop, private_addresses=False, allowed_addresses=())
    assert info.value.code in ("SANDBOX_DENIED", "INVALID_URL")
    assert [s.path for s in web.seen] == []  # the first hop is loopback too: refused


def test_jq_modules_are_refused_in_the_sandbox(sandbox, tmp_path):
    elsewhere = tmp_path.parent / "elsewhere-modules"
    elsewhere.mkdir(exist_ok=True)
    (elsewhere / "credentials.json").write_text('{"key": "s3cr3t"}')
    for program, paths in ((f'import "credentials" as $c {{search: "{elsewhere}"}}; $c', []),
                           (f'include "x" {{search: "{elsewhere}"}}; 1', []),
                           ("1", [str(elsewhere)])):
        with pytest.raises(JqMagicError) as info:
            query(program, null_input=True, library_paths=paths)
        assert info.value.code == "SANDBOX_DENIED" and "s3cr3t" not in info.value.render()


def test_env_shows_no_secrets_in_the_sandbox(sandbox, monkeypatch):
    monkeypatch.setenv("BRAVE_API_KEY", "s3cr3t-key")
    shared_worker().stop()  # a worker started before the secret was set knows nothing
    seen = query("[$ENV.BRAVE_API_KEY, (env | has(\"BRAVE_API_KEY\")), ($ENV | has(\"PATH\"))]",
                 null_input=True, compact=True)
    assert seen.values == [[None, False, True]]
    monkeypatch.setattr(settings, "sandbox", False)
    assert query("$ENV.BRAVE_API_KEY", null_input=True).values == ["s3cr3t-key"]


@pytest.mark.parametrize("program", ['error("x" * 10000000)', '"x" * 10000000 | halt_error',
                                     '"x" * 10000000 | halt_error(5)'])
def test_huge_error_messages_are_bounded(program):
    with pytest.raises(JqMagicError) as info:
        query(program, null_input=True)
    assert len(info.value.render()) < 5_000 and "more characters" in info.value.message


def test_debug_and_stderr_messages_are_bounded_in_all():
    result = query('range(100) | debug("y" * 1000000) | stderr | empty', null_input=True)
    assert sum(len(m) for m in result.messages) < 15_000
    assert result.messages[-1].startswith("…")


def test_the_tool_answers_huge_errors_in_bounds(env):
    run = subprocess.run([sys.executable, "-m", "jqmagic", "tool", "jq"],
                         input=json.dumps({"query": 'error("x" * 10000000)', "input": "1"}),
                         capture_output=True, text=True, timeout=60, env=env)
    answer = json.loads(run.stdout)
    assert answer["error_code"] == "QUERY_ERROR" and len(run.stdout) < 5_000


def test_the_worker_starts_under_a_host_memory_limit(tmp_path):
    """Under `ulimit -v` the worker takes the host's limit instead of raising its own."""
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
            "import jqmagic; print(jqmagic.query('[range(3)] | add', null_input=True).values)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "[3]", run.stderr[-2000:]


def test_deeply_nested_html_converts_in_bounded_time():
    from jqmagic.core.web.html import to_markdown

    started = time.perf_counter()
    page = to_markdown("<p>a</p>" + "<div>" * 50_000 + "deep" + "</div>" * 50_000)
    assert "deep" in page.markdown and time.perf_counter() - started < 10


def test_a_window_of_a_big_file_costs_the_window(tmp_path):
    import tracemalloc

    import jqmagic.tools as tools

    path = tmp_path / "big.log"
    with open(path, "w") as out:
        for i in range(400_000):
            out.write(f"line {i:07d} " + "z" * 100 + "\n")  # about 45 MB
    tracemalloc.start()
    try:
        out = tools.call("read_file", {"file_path": str(path), "offset": 2, "limit": 1},
                         allow_root=[str(tmp_path)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out["content"].startswith("line 0000001 ") and out["total_lines"] == 400_000
    assert peak < 5_000_000


LONE_SURROGATES = '{"a": "x\\ud800y", "\\udfff": [1, "\\ud83d"]}'


@pytest.mark.parametrize("face", [
    ["inspect", "--stats"], ["inspect"], ["tool", "json_inspect"], ["tool", "read_file"]])
def test_lone_surrogates_print_as_escapes_on_every_face(tmp_path, face):
    """Python's json reads "\\ud800"; every face prints it back as an escape, no traceback."""
    path = tmp_path / "s.json"
    path.write_text(LONE_SURROGATES)
    request = None
    if face[0] == "tool":
        request = json.dumps({"file_path": str(path)} if face[1] == "read_file" else
                             {"filePath": str(path), "stats": True})
    args = face + (["--allow-root", str(tmp_path)] if face[0] == "tool" else [str(path)])
    run = subprocess.run([sys.executable, "-m", "jqmagic", *args],
                         input=request.encode() if request else None,
                         capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr.decode()[-500:]
    out = run.stdout.decode("utf-8")  # strict: valid UTF-8
    assert "Traceback" not in run.stderr.decode() and "\\udfff" in out
    if face[0] == "tool":
        assert json.loads(out)["success"] is True


def test_a_glob_from_outside_the_roots_is_refused_before_any_walk(sandbox):
    with pytest.raises(JqMagicError) as caught:
        query(".", "/**/*.json")
    assert caught.value.code == "SANDBOX_DENIED"


def test_a_glob_is_bounded_in_files_and_time(tmp_path, monkeypatch):
    for i in range(6):
        (tmp_path / f"{i}.json").write_text("1")
    monkeypatch.setattr(settings, "glob_max_files", 5)
    with pytest.raises(JqMagicError) as caught:
        query(".", str(tmp_path / "*.json"))
    assert caught.value.code == "TOO_LARGE" and "data/**/*.json" in caught.value.hint
    monkeypatch.setattr(settings, "glob_max_files", 10**9)
    monkeypatch.setattr(settings, "glob_seconds", 0.3)
    started = time.monotonic()
    with pytest.raises(JqMagicError) as caught:  # the walk stops at its next match
        query(".", "/**/*")
    assert caught.value.code == "TIMEOUT" and time.monotonic() - started < 5


def test_dns_rebinding_cannot_reach_the_local_server(sandbox, web, monkeypatch):
    """The host resolves to a public address for the check, then to 127.0.0.1: the
    connection goes to the checked address (refused here), never to the local server."""
    from jqmagic.core import sandbox as policy

    web.add("/secret.json", '{"secret": 1}', "application/json")
    port = int(web.url().split(":")[2].split("/")[0])
    answers = iter([[(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))]])
    resolve = policy._resolve

    def rebinding(host, *args, **kwargs):
        if host != "rebind.test":
            return resolve(host, *args, **kwargs)
        return next(answers, [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))])

    tried = []
    real = socket.socket.connect

    def connect(sock, address):  # a guard that refuses and records non-loopback addresses
        if isinstance(address, tuple) and address[0] not in ("127.0.0.1", "::1"):
            tried.append(address[0])
            raise ConnectionRefusedError(111, "refused by the test's guard")
        return real(sock, address)

    monkeypatch.setattr(policy, "_resolve", rebinding)
    monkeypatch.setattr(socket.socket, "connect", connect)
    with pytest.raises(JqMagicError) as info:
        fetch(f"http://rebind.test:{port}/secret.json")
    assert info.value.code == "NETWORK_ERROR"
    assert tried == ["93.184.216.34"] and web.seen == []
