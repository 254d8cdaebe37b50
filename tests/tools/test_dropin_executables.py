"""The web tools spec's executables: --schema, JSON on stdin, JSON on stdout, exit status,
``config_required`` on stderr; run as installed console scripts against 127.0.0.1."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.web_servers import BRAVE_KEY, GOOGLE_CX, GOOGLE_KEY, fake_brave, fake_google

SCRIPTS = {"web-search-brave-tool": "web_search_brave",
           "web-search-google-tool": "web_search_google", "web-fetch-tool": "web_fetch"}




def run(script: str, env: dict, *args: str, request: object = None
        ) -> subprocess.CompletedProcess:
    path = shutil.which(script, path=os.path.dirname(sys.executable))
    assert path, f"{script} is not installed next to {sys.executable}: pip install -e ."
    return subprocess.run([path, *args], input=json.dumps(request), capture_output=True,
                          text=True, timeout=60, env=env)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_schema(script, env):
    done = run(script, env, "--schema")
    assert done.returncode == 0 and done.stderr == ""
    schema = json.loads(done.stdout)
    assert set(schema) == {"name", "description", "parameters"}
    assert schema["name"] == SCRIPTS[script]
    assert schema["parameters"]["type"] == "object"


def test_search_schemas_differ_only_where_the_spec_says():
    from jqmagic.tools import get

    brave, google = (get(n).parameters for n in ("web_search_brave", "web_search_google"))
    same = ("query", "allowed_domains", "blocked_domains")
    assert {k: brave["properties"][k] for k in same} == {k: google["properties"][k]
                                                         for k in same}
    assert brave["required"] == google["required"] == ["query"]


def test_brave(env, web):
    env.update(JQMAGIC_BRAVE_ENDPOINT=fake_brave(web), BRAVE_API_KEY=BRAVE_KEY)
    done = run("web-search-brave-tool", env, request={"query": "jq", "count": 4,
                                                      "blocked_domains": ["spam.com"]})
    assert done.returncode == 0 and done.stderr == ""
    out = json.loads(done.stdout)
    assert out["success"] is True and out["count"] == len(out["results"]) == 3
    assert set(out["results"][0]) == {"title", "url", "snippet"}
    limited = run("web-search-brave-tool", env, request={"query": "ratelimit"})
    assert limited.returncode != 0
    assert json.loads(limited.stdout)["error"] == (
        "Rate limit exceeded. You've used your free search quota (2,000/month).")


def test_google(env, web):
    env.update(JQMAGIC_GOOGLE_ENDPOINT=fake_google(web), GOOGLE_SEARCH_API_KEY=GOOGLE_KEY,
               GOOGLE_SEARCH_ENGINE_ID=GOOGLE_CX)
    done = run("web-search-google-tool", env, request={"query": "jq", "num": 3, "start": 2})
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["count"] == 3
    assert out["results"][0]["url"] == "https://sub.example.com/r2"
    quota = run("web-search-google-tool", env, request={"query": "quota"})
    assert quota.returncode != 0 and json.loads(quota.stdout)["error_code"] == "RATE_LIMIT"


@pytest.mark.parametrize(("script", "credentials"), [
    ("web-search-brave-tool", None), ("web-search-google-tool", ["api_key", "engine_id"])])
def test_missing_credentials(env, script, credentials):
    done = run(script, env, request={"query": "anything"})
    assert done.returncode != 0
    out = json.loads(done.stdout)
    assert (out["success"], out["error_code"]) == (False, "AUTH_MISSING")
    event = json.loads(done.stderr)
    assert set(event) == {"kind", "content", "data_json"}
    assert event["kind"] == "config_required"
    assert "Configuration Required" in event["content"]
    data = json.loads(event["data_json"])
    assert data["tool"] == SCRIPTS[script] and data.get("credentials") == credentials


def test_fetch(env, web):
    url = web.add("/p", "<html><head><title>T</title></head><body><h2>Part</h2>"
                        "<p>Text <em>here</em>.</p><script>x()</script></body></html>")
    done = run("web-fetch-tool", env, request={"url": url, "offset": 1, "limit": 10})
    out = json.loads(done.stdout)
    assert done.returncode == 0 and done.stderr == ""
    assert {k: out[k] for k in ("success", "url", "title")} == {"success": True, "url": url,
                                                                "title": "T"}
    assert out["content"] == "## Part\n\nText *here*."


@pytest.mark.parametrize(("request_", "code"), [
    ({"url": "notaurl"}, "INVALID_URL"), ({"url": "http://127.0.0.1:9/"}, "NETWORK_ERROR"),
    ({"url": "http://a.b", "limit": 0}, "INVALID_ARGUMENT")])
def test_fetch_errors(env, request_, code):
    done = run("web-fetch-tool", env, request=request_)
    assert done.returncode != 0 and done.stderr == ""
    out = json.loads(done.stdout)
    assert (out["success"], out["error_code"]) == (False, code) and out["error"]
