"""Golden runs of ``jqmagic fetch`` and ``jqmagic search`` against servers on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.web_servers import BRAVE_KEY, GOOGLE_CX, GOOGLE_KEY, fake_brave, fake_google

PAGE = ("<html><head><title>Doc page</title></head><body><nav>MENU</nav><article>"
        "<h1>Doc</h1><h2>Usage</h2><p>" + "Words that make the body of this page. " * 20
        + "</p><p>Line after.</p></article></body></html>")




def jqmagic(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jqmagic", *args], capture_output=True,
                          text=True, timeout=60, env=env)


def test_fetch_prints_markdown(web, env):
    run = jqmagic(env, "fetch", web.add("/doc", PAGE))
    assert run.returncode == 0, run.stderr
    assert "## Usage" in run.stdout and "MENU" not in run.stdout


def test_fetch_json_shape_and_paging(web, env):
    run = jqmagic(env, "fetch", web.add("/doc", PAGE), "--json", "--limit", "1")
    assert run.returncode == 0
    out = json.loads(run.stdout)
    assert out["success"] is True and out["title"] == "Doc page"
    assert out["url"] == web.url("/doc") and out["content"] == "## Usage"  # h1 = title: dropped
    assert out["total_lines"] > 1 and out["next_offset"] == 2


def test_fetch_offset_note_on_stderr(web, env):
    text = "\n".join(f"l{i}" for i in range(1, 6))
    run = jqmagic(env, "fetch", web.add("/t", text, "text/plain"), "--offset", "2",
                  "--limit", "2")
    assert run.stdout == "l2\nl3\n"
    assert "--offset 4" in run.stderr


def test_fetch_jq_and_headers(web, env):
    url = web.add("/api", json.dumps({"items": [{"id": 1}, {"id": 2}]}), "application/json")
    run = jqmagic(env, "fetch", url, "--jq", "[.items[].id]", "-H", "X-Token: abc", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["value"] == [1, 2]
    assert web.seen[-1].headers["x-token"] == "abc"


@pytest.mark.parametrize(("status", "code"), [(404, "HTTP_ERROR"), (503, "HTTP_ERROR")])
def test_fetch_json_failure(web, env, status, code):
    run = jqmagic(env, "fetch", web.add("/e", b"x", "text/plain", status=status), "--json")
    assert run.returncode == 1
    out = json.loads(run.stdout)
    assert out == {"success": False, "error": out["error"], "error_code": code,
                   "hint": out["hint"]}  # the one error shape of every JSON face
    assert out["error"].startswith(f"HTTP {status}")


def test_fetch_invalid_url_and_plain_error(env):
    run = jqmagic(env, "fetch", "ftp://example.com/x", "--json")
    assert run.returncode == 1 and json.loads(run.stdout)["error_code"] == "INVALID_URL"
    run = jqmagic(env, "fetch", "ftp://example.com/x")
    assert run.returncode == 1 and run.stderr.startswith("error INVALID_URL")


def test_fetch_sandbox_flag(web, env):
    run = jqmagic(env, "fetch", web.add("/t", "x", "text/plain"), "--sandbox", "--json")
    assert run.returncode == 1 and json.loads(run.stdout)["error_code"] == "SANDBOX_DENIED"


def test_fetch_too_large(web, env):
    run = jqmagic(env, "fetch", web.add("/big", b"y" * 4000, "text/plain"),
                  "--max-bytes", "100", "--json")
    assert json.loads(run.stdout)["error_code"] == "TOO_LARGE"


def test_fetch_bad_header(env):
    run = jqmagic(env, "fetch", "http://127.0.0.1:9/", "-H", "no colon here")
    assert run.returncode == 1 and "INVALID_ARGUMENT" in run.stderr


def test_search_brave(web, env):
    env.update(JQMAGIC_BRAVE_ENDPOINT=fake_brave(web), BRAVE_API_KEY=BRAVE_KEY)
    run = jqmagic(env, "search", "jq", "tips", "--count", "5", "--block", "spam.com",
                  "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["success"] is True and out["count"] == 3
    assert web.seen[-1].query["q"] == ["jq tips"]
    assert BRAVE_KEY not in run.stdout + run.stderr
    md = jqmagic(env, "search", "jq tips", "--count", "1")
    assert md.stdout.startswith("- [jq tips result 0")


def test_search_google(web, env):
    env.update(JQMAGIC_GOOGLE_ENDPOINT=fake_google(web), GOOGLE_SEARCH_API_KEY=GOOGLE_KEY,
               GOOGLE_SEARCH_ENGINE_ID=GOOGLE_CX)
    run = jqmagic(env, "search", "jq", "--provider", "google", "--count", "2", "--json")
    assert [r["url"] for r in json.loads(run.stdout)["results"]] == [
        "https://example.com/r1", "https://sub.example.com/r2"]


def test_search_errors(web, env):
    run = jqmagic(env, "search", "anything", "--json")
    out = json.loads(run.stdout)
    assert run.returncode == 1 and out["error_code"] == "AUTH_MISSING"
    env.update(JQMAGIC_BRAVE_ENDPOINT=fake_brave(web), BRAVE_API_KEY=BRAVE_KEY)
    run = jqmagic(env, "search", "ratelimit")
    assert run.returncode == 1 and run.stderr.startswith("error RATE_LIMIT")
