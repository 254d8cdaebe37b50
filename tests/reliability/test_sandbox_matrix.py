"""Issue 28's attack matrix: each class of leak tried as an attacker would, through the core
(query() in this process, answered by the supervised worker) and the command line (in
process): module directives in every spelling, ``~/.jq``, file options, worker
environments, payload globs, address forms. Every case ends in a coded error or a correct
answer and prints no secret; the table is written to build/sandbox-matrix.md.

A property test generates module directives from jq 1.8.2's grammar (module, import,
include; comments and whitespace between every token; strings and @format strings as paths;
metadata objects), checks with libjq that each really is a directive jq accepts, and that
the sandbox refuses every one. What holds when a check is missed is shown by
test_confinement.py (the kernel's confinement with the checks switched off).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from jqmagic import fetch, query
from jqmagic.core import payloads, sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import libjq, libjqinput
from jqmagic.core.settings import settings
from tests.reliability.faces import cli

SECRET = "s3cr3t-28"
OUTSIDE_MODULES = {"secret.jq": f'def leak: "{SECRET}";', "secret.json": json.dumps(SECRET),
                   "secret": SECRET}


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("matrix")
    root, outside, home = base / "root", base / "outside", base / "home"
    for folder in (root, outside, home):
        folder.mkdir()
    (root / "data.json").write_text('{"a": 1}')
    (root / "other.json").write_text('{"a": 2}')
    (root / "secret.jq").write_text(f'def leak: "{SECRET}";')  # a module inside the roots
    for name, text in OUTSIDE_MODULES.items():
        (outside / name).write_text(text)
    (home / ".jq").write_text(f'def homeleak: "{SECRET}";')
    return {"root": root, "outside": outside, "home": home, "base": base}


@pytest.fixture
def sandboxed(places, monkeypatch):
    """The sandbox on, the roots = root/, a secret in the environment, ~ with a .jq file."""
    monkeypatch.setenv("SECRET_TOKEN", SECRET)
    monkeypatch.setenv("HOME", str(places["home"]))
    monkeypatch.chdir(places["root"])
    settings.sandbox, settings.allowed_roots = True, [str(places["root"])]
    settings.private_addresses = False
    return places


@pytest.fixture(scope="module")
def matrix():
    rows: list[tuple[str, str, str, str]] = []
    yield rows
    out = Path(__file__).resolve().parents[2] / "build" / "sandbox-matrix.md"
    out.parent.mkdir(exist_ok=True)
    lines = ["| class | case | face | outcome |", "|---|---|---|---|"]
    lines += [f"| {c} | `{k}` | {f} | {o} |".replace("\n", "\\n") for c, k, f, o in rows]
    out.write_text("\n".join(lines) + "\n")


def outcome(call) -> tuple[str, str]:
    """("OK", the text) or (the code, the error as an agent would read it)."""
    try:
        result = call()
    except JqMagicError as exc:
        return exc.code, json.dumps(exc.to_dict("agent"))
    return "OK", getattr(result, "text", None) or json.dumps(getattr(result, "content", ""))


# ---------------------------------------------------------------- module directives

DIRECTIVES = {
    "import": 'import "secret" as s; s::leak',
    "include": 'include "secret"; leak',
    "import data": 'import "secret" as $d; $d',
    "search absolute": 'import "secret" as s {search: "OUTSIDE"}; s::leak',
    "search relative": 'include "secret" {search: "../outside"}; leak',
    "search home": 'include "secret" {search: "~/../outside"}; leak',
    "search list": 'import "secret" as s {search: ["/nope", "OUTSIDE"]}; s::leak',
    "raw data": 'import "secret" as $d {search: "OUTSIDE", raw: true}; $d',
    "comment between": 'import # a comment\n "secret" as s; s::leak',
    "comments everywhere": '#c\ninclude#c\n"secret"#c\n{search:"OUTSIDE"}#c\n;leak',
    "@format path": 'include @base64 "secret" {search: "OUTSIDE"}; leak',
    "@text path": 'import @text "secret" as s; s::leak',
    "after module": 'module {a: 1}; import "secret" as s; s::leak',
    "no spaces": 'import"secret"as s;s::leak',
    "CR LF first": '\r\ninclude "secret" {search: "OUTSIDE"}; leak',
    "optional": 'import "secret" as s {optional: true}; .',
    "continued comment": '# x \\\nimport "secret" as s; s::leak',
}
ALLOWED = {  # programs that only look like modules: they must still run
    "a key named import": ('{import: 1} | .import', "1"),
    "a string": ('"import \\"x\\" as y;" | length', "16"),
    "a field": ('{"include": 2} | .include', "2"),
    "has()": ('{"include": 2} | has("include")', "true"),
}


@pytest.mark.parametrize("case", DIRECTIVES)
def test_module_directives_are_refused(sandboxed, matrix, case):
    program = DIRECTIVES[case].replace("OUTSIDE", str(sandboxed["outside"]))
    assert sandbox.may_import(program)
    code, text = outcome(lambda: query(program, null_input=True))
    matrix.append(("module directive", case, "core", code))
    assert code == "SANDBOX_DENIED" and SECRET not in text
    assert "def f" in json.loads(text)["hint"]


@pytest.mark.parametrize("case", ALLOWED)
def test_programs_that_only_look_like_modules_run(sandboxed, matrix, case):
    program, expected = ALLOWED[case]
    assert not sandbox.may_import(program)
    code, text = outcome(lambda: query(program, null_input=True, compact=True))
    matrix.append(("look-alike (must run)", case, "core", code))
    assert (code, text) == ("OK", expected)


LIBJQ_ONLY = {  # not directives: libjq is left with no library path and no ~/.jq
    "~/.jq": ("homeleak", {"INVALID_QUERY"}),
    "modulemeta": ('"secret" | modulemeta', {"QUERY_ERROR"}),
    "modulemeta absolute": ('"OUTSIDE/secret" | modulemeta', {"QUERY_ERROR"}),
    "get_search_list": ("get_search_list", {"OK"}),
}


@pytest.mark.parametrize("case", LIBJQ_ONLY)
def test_libjq_has_no_library_path_and_no_home_jq(sandboxed, matrix, case):
    program, codes = LIBJQ_ONLY[case]
    code, text = outcome(lambda: query(program.replace("OUTSIDE", str(sandboxed["outside"])),
                                       null_input=True, compact=True))
    matrix.append(("libjq's own search", case, "core", code))
    assert code in codes and SECRET not in text
    if code == "OK":
        assert text == "[]"


def test_library_paths_are_refused(sandboxed, matrix):
    code, text = outcome(lambda: query(".", null_input=True,
                                       library_paths=[str(sandboxed["outside"])]))
    matrix.append(("module directive", "-L DIR", "core", code))
    assert code == "SANDBOX_DENIED"


def test_the_same_programs_load_modules_outside_the_sandbox(places, monkeypatch):
    """The cases are real: without the sandbox, libjq loads the secret through them."""
    monkeypatch.chdir(places["root"])
    for case in ("search absolute", "comments everywhere", "@format path", "after module"):
        program = DIRECTIVES[case].replace("OUTSIDE", str(places["outside"]))
        compiled = libjq.compile_program(program, library_paths=[])
        assert SECRET in "".join(libjqinput.run(compiled, [], null_input=True)), case
        compiled.close()


# ---------------------------------------------------------------- file options


@pytest.mark.parametrize("option", [["--rawfile", "x"], ["--slurpfile", "x"], ["-f"]])
@pytest.mark.parametrize("where", ["outside", "missing outside", "inside"])
def test_file_options_go_through_the_sandbox(sandboxed, matrix, option, where):
    path = {"outside": str(sandboxed["outside"] / "secret.json"),
            "missing outside": str(sandboxed["outside"] / "none.json"),
            "inside": str(sandboxed["root"] / "data.json")}[where]
    argv = ["query", "-n", *option, path] + ([] if option == ["-f"] else ["$x"])
    code, text = cli(*argv)
    matrix.append(("file option", f"{' '.join(option)} {where}", "cli", code))
    assert SECRET not in text
    if where == "inside":
        assert code == "OK"
    else:
        assert code == "SANDBOX_DENIED"


@pytest.mark.parametrize("option", ["--merge-patch", "--rfc6902"])
@pytest.mark.parametrize("where", ["outside", "missing outside"])
def test_patch_files_go_through_the_sandbox(sandboxed, matrix, option, where):
    name = "secret.json" if where == "outside" else "none.json"
    code, text = cli("patch", str(sandboxed["root"] / "data.json"), option,
                     str(sandboxed["outside"] / name))
    matrix.append(("file option", f"patch {option} {where}", "cli", code))
    assert code == "SANDBOX_DENIED" and SECRET not in text
    assert (sandboxed["root"] / "data.json").read_text() == '{"a": 1}'


# ---------------------------------------------------------------- worker environments

ENV_PROGRAM = '[$ENV.SECRET_TOKEN, env.SECRET_TOKEN, ($ENV | has("SECRET_TOKEN"))]'


def test_the_worker_sees_no_secret(sandboxed, matrix):
    code, text = outcome(lambda: query(ENV_PROGRAM, null_input=True, compact=True))
    matrix.append(("environment", "$ENV / env", "core worker", code))
    assert (code, text) == ("OK", "[null,null,false]")


def test_parallel_workers_see_no_secret(sandboxed, matrix):
    files = [str(sandboxed["root"] / "data.json"), str(sandboxed["root"] / "other.json")]
    code, text = outcome(lambda: query(f"{ENV_PROGRAM} + [.a]", file=files, parallel=2,
                                       compact=True))
    matrix.append(("environment", "$ENV / env", "--parallel workers", code))
    assert (code, text) == ("OK", "[null,null,false,1]\n[null,null,false,2]")


def test_a_process_answering_for_a_sandboxed_caller_sees_no_secret(places, matrix,
                                                                    monkeypatch):
    """A Dask worker process has the environment it was started with: answering a task of
    a sandboxed caller, it takes the caller's sandbox (sandbox.imposed) and its jqmagic
    worker starts scrubbed."""
    monkeypatch.setenv("SECRET_TOKEN", SECRET)
    monkeypatch.chdir(places["root"])
    settings.sandbox = False
    assert query("$ENV.SECRET_TOKEN", null_input=True).text == json.dumps(SECRET)
    caller = {"sandbox": True, "allowed_roots": [str(places["root"])]}
    with sandbox.imposed(caller):
        code, text = outcome(lambda: query(ENV_PROGRAM, null_input=True, compact=True))
    matrix.append(("environment", "$ENV / env", "process answering for a sandboxed caller",
                   code))
    assert (code, text) == ("OK", "[null,null,false]") and settings.sandbox is False


def test_worker_environment_pins_the_sandbox(sandboxed, monkeypatch):
    monkeypatch.setenv("BRAVE_API_KEY", SECRET)
    env = sandbox.worker_environment(os.environ)
    assert SECRET not in json.dumps(env)
    assert env["JQMAGIC_SANDBOX"] == "1"
    assert env["JQMAGIC_ALLOWED_ROOTS"] == os.path.realpath(sandboxed["root"])
    assert sandbox.worker_key() is not None
    settings.sandbox = False
    assert sandbox.worker_key() is None


# ---------------------------------------------------------------- payload globs


def test_a_glob_does_not_reach_other_sessions_payloads(sandboxed, matrix, monkeypatch):
    store = sandboxed["root"] / "payload-store"
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(store))
    theirs = payloads.store(json.dumps({"token": SECRET}))
    for case, spec in [("root/**/*.json", str(sandboxed["root"] / "**" / "*.json")),
                       ("store/*/payload.json", str(store / "*" / "payload.json"))]:
        code, text = outcome(lambda s=spec: query(".a?", file=s, compact=True))
        matrix.append(("payload glob", case, "core", code))
        assert SECRET not in text and code in ("OK", "NOT_FOUND")
    code, text = outcome(lambda: query(".token", file=str(theirs.path)))
    matrix.append(("payload glob", "store/<id>/payload.json (named by id)", "core", code))
    assert code == "OK" and SECRET in text


# ---------------------------------------------------------------- address forms

ADDRESSES = {
    "6to4 of 127.0.0.1": "[2002:7f00:1::]",
    "6to4 of 169.254.169.254": "[2002:a9fe:a9fe::]",
    "NAT64 of 127.0.0.1": "[64:ff9b::7f00:1]",
    "NAT64 local use": "[64:ff9b:1::1]",
    "Teredo": "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
    "site-local": "[fec0::1]",
    "IPv4-mapped": "[::ffff:127.0.0.1]",
    "IPv4-compatible": "[::127.0.0.1]",
    "IPv4-translated": "[::ffff:0:127.0.0.1]",
    "unique local": "[fd00::1]",
    "shared (CGNAT)": "100.64.0.1",
    "benchmarking": "198.18.0.1",
    "documentation v6": "[2001:db8::1]",
}


@pytest.mark.parametrize("case", ADDRESSES)
def test_special_purpose_addresses_are_refused(sandboxed, matrix, loopback_only, case):
    code, text = outcome(lambda: fetch(f"http://{ADDRESSES[case]}:9/secret"))
    matrix.append(("address form", case, "core fetch", code))
    assert code == "SANDBOX_DENIED"


@pytest.mark.parametrize(("address", "refused"), [
    ("2002:808:808::", False), ("64:ff9b::808:808", False), ("::ffff:8.8.8.8", False),
    ("2606:4700:4700::1111", False), ("8.8.8.8", False), ("2002:c0a8:1::", True),
    ("2002:a00:1::", True), ("64:ff9b::a00:1", True), ("::8.8.8.8", True),
    ("192.0.0.170", True), ("240.0.0.1", True), ("255.255.255.255", True), ("100::1", True),
    ("2001:2::1", True), ("2001:10::1", True), ("3fff::1", True), ("5f00::1", True),
    ("fe80::1%eth0", True), ("ff02::1", True), ("0.1.2.3", True)])
def test_embedded_ipv4_addresses_are_judged_by_what_they_reach(address, refused):
    assert sandbox.is_private_address(address) is refused


# ---------------------------------------------------------------- the property

WS = st.sampled_from(["", " ", "\t", "\n", "\r\n", " #c\n", "#import x\n", "  \n\t"])
SEP = st.sampled_from([" ", "\t", "\n", "#c\n", " # include \n"])  # a separator is needed
FORMATS = st.sampled_from(["", "@text ", "@json ", "@base64 ", "@html\t", "@sh "])
PATHS = st.sampled_from(["secret", "./secret", "../outside/secret", "OUTSIDE/secret"])
META_KEYS = st.sampled_from(["search", "optional", "raw", "x"])
META_VALUES = st.sampled_from(['"OUTSIDE"', '["OUTSIDE", "."]', '"~/"', "true", '"./"'])


@st.composite
def directives(draw) -> str:
    """One program holding module directives, as jq 1.8.2's grammar writes them."""
    parts = [draw(WS)]
    if draw(st.booleans()):
        parts += ["module", draw(WS), "{", draw(META_KEYS), ":", draw(META_VALUES), "}",
                  draw(WS), ";", draw(WS)]
    for _ in range(draw(st.integers(1, 2))):
        path = f'{draw(FORMATS)}"{draw(PATHS)}"'
        if draw(st.booleans()):
            binding = draw(st.sampled_from(["s", "$d"]))
            parts += ["import", draw(WS), path, draw(WS), "as", draw(SEP), binding]
        else:
            parts += ["include", draw(WS), path]
        if draw(st.booleans()):
            meta = ", ".join(f"{k}: {draw(META_VALUES)}" for k in
                             draw(st.lists(META_KEYS, min_size=1, max_size=3, unique=True)))
            parts += [draw(WS), "{", meta, "}"]
        parts += [draw(WS), ";", draw(WS)]
    parts.append(draw(st.sampled_from([".", "1", "[.]"])))
    return "".join(parts)


@hsettings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(program=directives())
def test_every_directive_the_grammar_allows_is_refused(places, program):
    program = program.replace("OUTSIDE", str(places["outside"]))
    try:  # jq's own parser reads it as directives (a missing module is not a syntax error)
        libjq.compile_program(program, library_paths=[]).close()
    except libjq.CompileError as exc:
        assert "syntax error" not in str(exc) and "Top-level" not in str(exc), program
    assert sandbox.may_import(program), program
    saved = settings.sandbox
    settings.sandbox = True
    try:
        with pytest.raises(JqMagicError) as caught:
            sandbox.check_program(program, [])
    finally:
        settings.sandbox = saved
    assert caught.value.code == "SANDBOX_DENIED"


def test_dask_workers_see_no_secret(sandboxed, matrix):
    """A LocalCluster started before the sandbox was on: its processes hold the secret in
    their environment, yet a sandboxed caller's tasks run in scrubbed workers."""
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is an optional extra (pip install "
        "'jqmagic[dask]')")
    from jqmagic.core.query.fanout import cluster as daskrun

    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    client = distributed.Client(cluster)
    try:
        files = [str(sandboxed["root"] / "data.json"), str(sandboxed["root"] / "other.json")]
        code, text = outcome(lambda: query(f"{ENV_PROGRAM} + [.a]", file=files,
                                           dask=cluster.scheduler_address, compact=True))
    finally:
        daskrun.close(cluster.scheduler_address)
        client.close()
        cluster.close()
    matrix.append(("environment", "$ENV / env", "--dask workers", code))
    assert (code, text) == ("OK", "[null,null,false,1]\n[null,null,false,2]")


LOOK_ALIKES = st.sampled_from([
    '{import: 1}', '{include: .}', '.import', '.include?', '."import"', '{"import": 2}',
    '"import \\"x\\" as y;"', '"include \\"y\\";"', '$__loc__', '(.import // "include")',
    '[.[]?.import]', '{a: "import"} | .a', '"\\("import")"', '@text "include \\(.)"',
    '. as {import: $i} | $i', 'has("include")?'])


@hsettings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(parts=st.lists(LOOK_ALIKES, min_size=1, max_size=4),
       joints=st.lists(st.sampled_from([" | ", ", ", " // "]), min_size=3, max_size=3),
       lead=st.sampled_from(["", " ", "\t", "\n", "# import x\n"]))
def test_programs_that_only_mention_modules_are_not_refused(parts, joints, lead):
    """No over-refusal: words, keys, fields and strings spelt import/include are no
    directive; libjq compiles each program, and the sandbox lets it through. (A carriage
    return or a backslash in a comment is outside the fast path's lexer: such a text is
    refused whenever it spells import or include anywhere, as in doubt.)"""
    program = lead + "".join(p + j for p, j in zip(parts, joints, strict=False))
    program = program + "."
    libjq.compile_program(program, library_paths=[]).close()  # valid jq, no directive
    assert not sandbox.may_import(program), program
