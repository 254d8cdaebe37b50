"""The whole query path with jqmagic's checks switched off (``sandbox.CHECKS = False`` in the
caller and in the worker, the test-only hook): the worker, which the supervisor starts
scrubbed (``sandbox.worker_environment``) and which confines itself before it reads a
request (``confine.start_worker``), still cannot read a file outside the roots, load a
module, see a secret or connect anywhere: the kernel refuses, and each case ends in a
coded error with no secret in it. The test only wraps the worker's command line, to switch
the checks off in it too."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from jqmagic import query
from jqmagic.core import confine, sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import supervisor
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings

pytestmark = pytest.mark.skipif(confine.landlock_abi() < 4, reason="the kernel's file and "
                                "TCP rules need Landlock ABI 4 (shortfall() says so)")
SECRET = "s3cr3t-confined"
WORKER_MODULE = "jqmagic.core.query.worker"
START = ("import runpy\nfrom jqmagic.core import sandbox\nsandbox.CHECKS = False\n"
         f"runpy.run_module({WORKER_MODULE!r}, run_name='__main__')\n")


@pytest.fixture
def confined_worker(tmp_path, monkeypatch):
    root, outside, home = tmp_path / "root", tmp_path / "outside", tmp_path / "home"
    for folder in (root, outside, home):
        folder.mkdir()
    (root / "in.json").write_text('{"a": 1}')
    (outside / "secret.json").write_text(json.dumps({"token": SECRET}))
    (outside / "secret.jq").write_text(f'def leak: "{SECRET}";')
    (home / ".jq").write_text(f'def homeleak: "{SECRET}";')
    monkeypatch.setenv("SECRET_TOKEN", SECRET)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    monkeypatch.chdir(root)
    monkeypatch.setattr(settings, "sandbox", True)
    monkeypatch.setattr(settings, "allowed_roots", [str(root)])
    monkeypatch.setattr(settings, "exec_allowed", True)  # commands run in the worker
    monkeypatch.setattr(sandbox, "CHECKS", False)
    real = subprocess.Popen

    def popen(argv, *args, **kwargs):
        wrapped = list(argv[1:]) == ["-m", WORKER_MODULE]
        started = real([argv[0], "-c", START] if wrapped else argv, *args, **kwargs)
        popened.extend([started] if wrapped else [])
        return started

    popened: list[subprocess.Popen] = []

    monkeypatch.setattr(supervisor.subprocess, "Popen", popen)
    shared_worker().stop()
    listener = socket.create_server(("127.0.0.1", 0))
    yield {"root": root, "outside": outside, "port": listener.getsockname()[1],
           "workers": popened}
    listener.close()
    shared_worker().stop()


def attempt(program: str, **kwargs) -> tuple[str, str]:
    try:
        result = query(program, compact=True, **kwargs)
    except JqMagicError as exc:
        return exc.code, json.dumps(exc.to_dict("agent"))
    return "OK", result.text


def test_the_confined_worker_holds_without_the_checks(confined_worker):
    outside = confined_worker["outside"]
    assert attempt(".a", file="in.json") == ("OK", "1")  # it works inside the roots
    seen = {
        "read": attempt(".", file=str(outside / "secret.json")),
        "import": attempt(f'import "secret" as s {{search: "{outside}"}}; s::leak',
                          null_input=True),
        "include": attempt(f'include "secret" {{search: "{outside}"}}; leak',
                           null_input=True),
        "data": attempt(f'import "secret" as $d {{search: "{outside}"}}; $d',
                        null_input=True),
        "~/.jq": attempt("homeleak", null_input=True),
        "$ENV": attempt("[$ENV.SECRET_TOKEN, env.SECRET_TOKEN]", null_input=True),
        "a command reading": attempt(".", exec=f"cat {outside / 'secret.json'}"),
        "a command connecting": attempt(".", exec=f"{sys.executable} -c \"import socket; "
                                        f"socket.create_connection(('127.0.0.1', "
                                        f"{confined_worker['port']}), 2); print(1)\""),
    }
    expected = {"read": "FILE_ERROR", "import": "INVALID_QUERY", "include": "INVALID_QUERY",
                "data": "INVALID_QUERY", "~/.jq": "INVALID_QUERY", "$ENV": "OK",
                "a command reading": "EXEC_ERROR", "a command connecting": "EXEC_ERROR"}
    assert {case: code for case, (code, _) in seen.items()} == expected
    assert not [case for case, (_, text) in seen.items() if SECRET in text]
    assert seen["$ENV"] == ("OK", "[null,null]")
    for case in ("read", "import", "include", "data", "a command reading",
                 "a command connecting"):
        assert "Permission denied" in seen[case][1], case  # the kernel said no
    assert attempt(".a", file="in.json") == ("OK", "1")  # and it still answers after all
    assert confined_worker["workers"]  # the checks were off in the worker that answered


def test_the_confined_worker_does_its_whole_job_inside_the_roots(confined_worker):
    """libjq reading files itself, a YAML file converted in its scratch folder, a command,
    results spilled to the payload store: all within what the confinement allows."""
    from jqmagic import payload

    root = confined_worker["root"]
    (root / "doc.yaml").write_text("a: 2\nb: [1, 2]\n")
    assert attempt("input_filename | type", file="in.json") == ("OK", '"string"')
    assert attempt("[inputs.a]", file=["in.json", "in.json"], null_input=True) == \
        ("OK", "[1,1]")
    assert attempt(".b", file="doc.yaml") == ("OK", "[1,2]")
    assert attempt(".a", exec="cat in.json") == ("OK", "1")
    result = query("range(300)", null_input=True, limit=10)
    assert result.truncated and result.payload_id
    assert payload(result.payload_id) == list(range(300))
