"""The kernel's confinement of a sandboxed worker, with jqmagic's own checks switched off
(``sandbox.CHECKS = False``, the test-only hook): each case is a real process that confines
itself with :func:`confine.apply_worker_confinement` and then tries what an attacker's
program would, in Python, through libjq and through a shell command."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from jqmagic.core import confine

LANDLOCK = confine.landlock_abi()
needs_landlock = pytest.mark.skipif(LANDLOCK == 0, reason="this kernel has no Landlock: "
                                    "the file rules cannot be shown (shortfall() says so)")
SECRET = "s3cr3t-outside"


@pytest.fixture
def world(tmp_path: Path):
    root, outside, home = tmp_path / "root", tmp_path / "outside", tmp_path / "home"
    scratch, store = tmp_path / "scratch", tmp_path / "payloads"
    for folder in (root, outside, home, scratch):
        folder.mkdir()
    (root / "in.json").write_text('{"a": 1}')
    (outside / "secret.json").write_text(json.dumps({"token": SECRET}))
    (outside / "secret.jq").write_text(f'def leak: "{SECRET}";')
    (home / ".jq").write_text(f'def homeleak: "{SECRET}";')
    listener = socket.create_server(("127.0.0.1", 0))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "JQMAGIC_PAYLOAD_DIR": str(store),
           "PYTHONPATH": os.pathsep.join(sys.path)}
    yield {"root": root, "outside": outside, "scratch": scratch, "store": store, "env": env,
           "port": listener.getsockname()[1]}
    listener.close()


PRELUDE = '''
import json, os, socket, subprocess, sys
from jqmagic.core import confine, sandbox
from jqmagic.core.settings import settings
sandbox.CHECKS = False                        # the Python-level checks are off
settings.sandbox, settings.allowed_roots = True, [ROOT]
if not SECCOMP:
    confine._deny_sockets = lambda: False     # Landlock's TCP rules alone
if NO_LANDLOCK:
    confine.landlock_abi = lambda: 0          # as on a kernel without Landlock
applied = confine.apply_worker_confinement(confine.Policy.for_worker(SCRATCH))
seen = {"applied": applied.__dict__}

def attempt(name, action):
    try:
        seen[name] = ["ok", action()]
    except Exception as exc:
        seen[name] = [type(exc).__name__, str(exc)[:200]]
'''


def confined(world: dict, body: str, seccomp: bool = True, landlock: bool = True) -> dict:
    """Run ``body`` in a confined process; what each attempt gave."""
    head = f"ROOT, SCRATCH, SECCOMP = {str(world['root'])!r}, {str(world['scratch'])!r}, " \
           f"{seccomp}\nNO_LANDLOCK = {not landlock}\n"
    code = head + PRELUDE + textwrap.dedent(body) + "\nprint(json.dumps(seen))\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=world["env"], cwd=world["root"])
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.splitlines()[-1])


@needs_landlock
def test_files_outside_the_roots_cannot_be_read_or_written(world):
    seen = confined(world, f'''
    attempt("root", lambda: open("in.json").read())
    attempt("outside", lambda: open({str(world["outside"] / "secret.json")!r}).read())
    attempt("passwd", lambda: open("/etc/passwd").read())
    attempt("list outside", lambda: os.listdir({str(world["outside"])!r}))
    attempt("write root", lambda: open("new.json", "w").write("{{}}"))
    attempt("write scratch", lambda: open(os.path.join(SCRATCH, "t"), "w").write("x"))
    attempt("write store", lambda: open({str(world["store"] / "p.json")!r}, "w").write("x"))
    attempt("read store", lambda: open({str(world["store"] / "p.json")!r}).read())
    attempt("list store", lambda: os.listdir({str(world["store"])!r}))
    from jqmagic.core.sources.files import read_text
    attempt("read_text", lambda: read_text({str(world["outside"] / "secret.json")!r}))
    ''')
    assert seen["applied"] == {"landlock_abi": LANDLOCK, "files": True, "tcp": LANDLOCK >= 4,
                               "seccomp": True}
    assert seen["root"] == ["ok", '{"a": 1}']
    for name in ("outside", "passwd", "list outside", "write root"):
        assert seen[name][0] == "PermissionError", (name, seen[name])
    assert seen["read_text"][0] == "JqMagicError" and SECRET not in seen["read_text"][1]
    assert seen["write scratch"] == ["ok", 1] and seen["write store"] == ["ok", 1]
    assert seen["read store"] == ["ok", "x"]  # a payload by its name, never by a listing
    assert seen["list store"][0] == "PermissionError"
    assert not (world["root"] / "new.json").exists()


@needs_landlock
def test_libjq_loads_no_module_and_no_home_jq(world):
    outside = str(world["outside"])
    seen = confined(world, f'''
    from jqmagic.core.query import libjq
    from jqmagic.core.query import libjqinput
    def run(program):
        return list(libjqinput.run(libjq.compile_program(program), ["in.json"]))
    attempt("import", lambda: run('import "secret" as s {{search: "{outside}"}}; s::leak'))
    attempt("include", lambda: run('include "secret" {{search: "{outside}"}}; leak'))
    attempt("data", lambda: run('import "secret" as $s {{search: "{outside}"}}; $s'))
    attempt("home", lambda: run("homeleak"))
    attempt("modulemeta", lambda: run('"{outside}/secret" | modulemeta'))
    attempt("search list", lambda: run("get_search_list"))
    attempt("plain", lambda: run(".a"))
    ''')
    for name in ("import", "include", "data", "home", "modulemeta"):
        assert seen[name][0] == "CompileError" or seen[name][0] == "RunError", seen[name]
        assert SECRET not in seen[name][1]
    assert seen["search list"] == ["ok", ["[]"]] and seen["plain"] == ["ok", ["1"]]


@needs_landlock
def test_a_shell_command_reads_only_the_roots(world):
    seen = confined(world, f'''
    cat = lambda path: subprocess.run(["cat", path], capture_output=True, text=True)
    attempt("inside", lambda: cat("in.json").stdout)
    attempt("outside", lambda: cat({str(world["outside"] / "secret.json")!r}).stdout)
    ''')
    assert seen["inside"] == ["ok", '{"a": 1}'] and seen["outside"] == ["ok", ""]


@pytest.mark.parametrize("seccomp", [True, False], ids=["seccomp", "landlock-tcp-alone"])
def test_no_connection_and_no_listening(world, seccomp):
    if not seccomp and LANDLOCK < 4:
        pytest.skip("Landlock's TCP rules need ABI 4; seccomp covers this kernel")
    seen = confined(world, f'''
    attempt("connect", lambda: socket.create_connection(("127.0.0.1", {world["port"]}), 2)
            and "connected")
    attempt("bind", lambda: socket.create_server(("127.0.0.1", 0)) and "listening")
    attempt("udp", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(
            b"x", ("127.0.0.1", {world["port"]})))
    attempt("pipe", lambda: len(os.pipe()))
    ''', seccomp=seccomp)
    assert seen["connect"][0] == "PermissionError" and seen["bind"][0] == "PermissionError"
    if seccomp:  # Landlock has no UDP rules: seccomp refuses every new socket
        assert seen["udp"][0] == "PermissionError"
    assert seen["pipe"] == ["ok", 2]


def test_without_landlock_seccomp_still_refuses_every_socket(world):
    """What remains on a kernel without Landlock: no socket at all (seccomp); files are
    left to jqmagic's own checks (switched off here, so the read goes through)."""
    seen = confined(world, f'''
    attempt("connect", lambda: socket.create_connection(("127.0.0.1", {world["port"]}), 2)
            and "connected")
    attempt("udp", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM) and "made")
    attempt("unix", lambda: socket.socket(socket.AF_UNIX) and "made")
    attempt("outside", lambda: len(open({str(world["outside"] / "secret.json")!r}).read()))
    ''', landlock=False)
    assert seen["applied"] == {"landlock_abi": 0, "files": False, "tcp": False,
                               "seccomp": True}
    for name in ("connect", "udp", "unix"):
        assert seen[name][0] == "PermissionError", (name, seen[name])
    assert seen["outside"][0] == "ok"


@pytest.mark.skipif(LANDLOCK < 6, reason="signal scoping needs Landlock ABI 6")
def test_the_worker_cannot_signal_its_caller(world):
    seen = confined(world, '''
    attempt("kill parent", lambda: os.kill(os.getppid(), 0))
    attempt("kill self", lambda: os.kill(os.getpid(), 0))
    ''')
    assert seen["kill parent"][0] == "PermissionError" and seen["kill self"][0] == "ok"


def test_the_shortfall_is_said_only_when_there_is_one():
    said = confine.shortfall()
    assert (said is None) == (LANDLOCK >= 4)
    if LANDLOCK == 0:
        assert "no Landlock" in said
    confine._said = False
    assert confine.shortfall_once() == said and confine.shortfall_once() is None


WORKER = '''
import os, re, sys, time
from jqmagic.core import confine
confine.die_with_parent(int(sys.argv[1]))
print("ready", flush=True)
re.match(r"(a+)+$", "a" * 40 + "b")  # a catastrophic match: the GIL is never let go
'''
CALLER = f'''
import sys, threading, time
from jqmagic.core import confine
started = []
def start():
    import os, subprocess, sys
    started.append(confine.popen([sys.executable, "-c", {WORKER!r}, str(os.getpid())],
                                 stdout=subprocess.PIPE, text=True))
thread = threading.Thread(target=start)
thread.start(); thread.join()   # the thread that asked is gone: the worker must live on
worker = started[0]
assert worker.stdout.readline() == "ready\\n"
time.sleep(0.5)
print(worker.pid, worker.poll(), flush=True)
time.sleep(600)
'''


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_worker_dies_with_its_caller_not_with_the_thread_that_started_it(how):
    caller = subprocess.Popen([sys.executable, "-c", CALLER], stdout=subprocess.PIPE,
                              text=True, env={**os.environ,
                                              "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        pid, status = caller.stdout.readline().split()
        assert status == "None"  # alive after the starting thread ended, inside the match
        caller.send_signal(how)
        caller.wait(10)
        for _ in range(100):
            if not _alive(int(pid)):
                break
            time.sleep(0.05)
        assert not _alive(int(pid)), "the worker outlived its SIGKILLed caller"
    finally:
        caller.kill()
        caller.wait()
        caller.stdout.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@needs_landlock
def test_a_worker_started_as_the_supervisor_starts_it(world, monkeypatch):
    """The environment :func:`sandbox.worker_environment` makes (secrets gone, the sandbox
    pinned) and :func:`confine.start_worker` at the worker's start: confined to the pinned
    roots, with no checks in Python."""
    from jqmagic.core import sandbox
    from jqmagic.core.settings import settings

    monkeypatch.setenv("SECRET_TOKEN", SECRET)
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(world["store"]))
    monkeypatch.setattr(settings, "sandbox", True)
    monkeypatch.setattr(settings, "allowed_roots", [str(world["root"])])
    env = {**sandbox.worker_environment(os.environ), "TMPDIR": str(world["scratch"]),
           "PYTHONPATH": os.pathsep.join(sys.path), "HOME": world["env"]["HOME"]}
    assert "SECRET_TOKEN" not in env and env["JQMAGIC_SANDBOX"] == "1"
    code = textwrap.dedent(f'''
        import json, os
        from jqmagic.core import confine, sandbox
        sandbox.CHECKS = False
        applied = confine.start_worker(os.getppid())
        from jqmagic.core.query import libjq
        from jqmagic.core.query import libjqinput
        seen = {{"applied": applied.files, "env": sorted(os.environ)}}
        for name, path in [("root", "in.json"), ("outside", {str(world["outside"] /
                                                                 "secret.json")!r})]:
            try:
                seen[name] = list(libjqinput.run(libjq.compile_program("."), [path]))
            except Exception as exc:
                seen[name] = type(exc).__name__
        print(json.dumps(seen))
    ''')
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=env, cwd=world["root"])
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout)
    assert seen["applied"] is True and "SECRET_TOKEN" not in seen["env"]
    assert seen["root"] == ['{"a":1}'] and seen["outside"] == "InputError"
    assert SECRET not in run.stdout + run.stderr


def test_a_refused_landlock_leaves_the_checks_and_seccomp(world):
    """A kernel whose Landlock calls fail (a container's own seccomp) does not stop the
    worker: it starts with files left to the checks, and sockets still refused."""
    code = textwrap.dedent('''
        import json
        from jqmagic.core import confine
        def refused(*args):
            raise PermissionError(1, "Operation not permitted")
        confine._landlock = refused
        applied = confine.apply_worker_confinement(confine.Policy(read=(), write=()))
        print(json.dumps(applied.__dict__))
    ''')
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=world["env"])
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == {"landlock_abi": 0, "files": False, "tcp": False,
                                      "seccomp": True}


def test_an_optimised_libjq_anywhere_stays_loadable(world, monkeypatch, tmp_path):
    library = tmp_path / "elsewhere" / "libjq.so"
    library.parent.mkdir()
    library.write_bytes(b"\x7fELF")
    monkeypatch.setenv("JQMAGIC_LIBJQ", str(library))
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(world["store"]))
    monkeypatch.setenv("JQMAGIC_SANDBOX", "1")  # commands refused: the roots read only
    policy = confine.Policy.for_worker(str(world["scratch"]), [str(world["root"])])
    assert str(library) in policy.runtime and policy.unlisted == (str(world["store"]),)
    assert policy.read == (str(world["root"]),) and not policy.network


def test_commands_allowed_may_write_under_the_roots_only(world, monkeypatch):
    from jqmagic.core.settings import settings

    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(world["store"]))
    monkeypatch.setattr(settings, "sandbox", True)
    root = str(world["root"])
    monkeypatch.setattr(settings, "exec_allowed", False)
    closed = confine.Policy.for_worker(str(world["scratch"]), [root])
    monkeypatch.setattr(settings, "exec_allowed", True)
    opened = confine.Policy.for_worker(str(world["scratch"]), [root])
    assert closed.read == (root,) and root not in closed.write
    assert opened.read == () and opened.write[-1] == root
    assert closed.unlisted == opened.unlisted == (str(world["store"]),)


def test_the_command_line_s_worker_is_confined_and_dies_with_it(tmp_path):
    """Through the real command line in the sandbox: its worker runs with seccomp and no
    new privileges, and when the command line is SIGKILLed in the middle of a long run,
    the worker goes with it (the kernel's signal: nothing in the worker has to run)."""
    env = {**os.environ, "JQMAGIC_SANDBOX": "1", "JQMAGIC_ALLOWED_ROOTS": str(tmp_path),
           "JQMAGIC_PAYLOAD_DIR": str(tmp_path / "payloads"),
           "PYTHONPATH": os.pathsep.join(sys.path)}
    program = "last(range(1e12))"
    caller = subprocess.Popen([sys.executable, "-m", "jqmagic", "query", "-n", program,
                               "--timeout", "600"], env=env, cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        worker = None
        confined = {}
        for _ in range(400):  # until the worker has confined itself (at its start: no new
            worker = next(iter(_children(caller.pid)), None)  # privileges, then the filter)
            confined = _status(worker) if worker else {}
            if confined.get("NoNewPrivs") == "1" and confined.get("Seccomp") == "2":
                break
            time.sleep(0.05)
        assert worker, "no worker started"
        assert confined.get("Seccomp") == "2"  # a filter on
        time.sleep(1.0)  # well into the match
        assert _status(worker)["State"].startswith("R")
        caller.kill()
        caller.wait(10)
        for _ in range(100):
            if not _alive(worker):
                break
            time.sleep(0.05)
        assert not _alive(worker), "the worker outlived its SIGKILLed command line"
    finally:
        caller.kill()
        caller.wait()


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listing:
            found += [int(child) for child in listing.read().split()]
    return found


def _status(pid: int) -> dict[str, str]:
    try:
        with open(f"/proc/{pid}/status") as status:
            return dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)
    except FileNotFoundError:
        return {}


def test_off_linux_nothing_is_applied_and_that_is_said(monkeypatch):
    monkeypatch.setattr(confine, "LINUX", False)
    assert confine.landlock_abi() == 0
    assert "jqmagic's own checks alone" in confine.shortfall()
    assert confine.apply_worker_confinement(confine.Policy(read=(), write=())) == \
        confine.Applied(0, files=False, tcp=False, seccomp=False)
    confine.die_with_parent(1)  # no prctl, and no kill of this process either
