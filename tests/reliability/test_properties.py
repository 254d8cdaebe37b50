"""Properties over every public entry point: random documents, programs, pointers, patches
and HTML. The only allowed outcomes are a result or a JqMagicError with a stable code.

Example counts are chosen for two shared cores (100-300 each, 3,100 in all).
"""

from __future__ import annotations

import copy
import json
import shlex

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.core.error import UsageError

from jqmagic import patch, query, shape
from jqmagic.core import sources
from jqmagic.core.web.html import to_markdown
from tests.reliability.faces import OK, cli, core, magic

SLOW = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
FEW, SOME, MANY = 100, 200, 300
TIMEOUT = 3.0  # a random program may loop; TIMEOUT is an allowed outcome

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
keys = st.sampled_from(["a", "b", "id", "items", "", "~0", "a/b", "é"]) | st.text(max_size=6)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(keys, inner, max_size=5), max_leaves=25)


@st.composite
def near_json(draw) -> str:
    """JSON text, then a few random edits: the documents people and tools almost write."""
    text = json.dumps(draw(json_values), indent=draw(st.sampled_from([None, 2])))
    for _ in range(draw(st.integers(0, 3))):
        pos = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "dup"]))
        piece = draw(st.sampled_from(list('{}[],:"\\ \n') + ["NaN", "//", "/*", "\ufeff",
                                                               "tru", "1e999", "\x00"]))
        if edit == "insert":
            text = text[:pos] + piece + text[pos:]
        elif edit == "delete":
            text = text[:pos] + text[pos + 1:]
        else:
            text = text[:pos] * 2 + text[pos:]
    return text


atoms = st.sampled_from([".", ".a", ".[0]", ".[]", "..", "keys", "length", "1", '"s"', "null",
                         "empty", "error", "$x", "range(3)", "tostring", "tojson", "fromjson",
                         "input", "$__loc__", ".[-1:]", "to_entries", "add", "not", "@base64",
                         "getpath([\"a\"])", "paths", "limit(2; .[])", "infinite", "nan"])


def combine(inner):
    return st.one_of(
        st.tuples(inner, st.sampled_from(["|", ",", "+", "-", "*", "/", "//", "and", "==", "<"]),
                  inner).map(" ".join),
        inner.map(lambda p: f"[{p}]"), inner.map(lambda p: f"{{a: {p}}}"),
        inner.map(lambda p: f"select({p})"), inner.map(lambda p: f"map({p})"),
        inner.map(lambda p: f"try {p} catch ."), inner.map(lambda p: f"({p})?"),
        st.tuples(inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else . end"),
        inner.map(lambda p: f"def f: {p}; f"), inner.map(lambda p: f"reduce .[] as $i (0; {p})"),
    )


programs = st.recursive(atoms, combine, max_leaves=6) | st.text(max_size=20)


def allowed(outcome) -> None:
    """Every helper in faces already asserts the code is stable; nothing else to check."""
    assert outcome[0] == OK or outcome[0].isupper()


# ---------------------------------------------------------------- core


@settings(max_examples=SOME, deadline=None, suppress_health_check=SLOW)
@given(program=programs, document=near_json())
def test_query_random_programs_on_near_json(program, document):
    allowed(core(query, program, text=document, args={"x": 1}, timeout=TIMEOUT))


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(data=st.binary(max_size=300), program=programs)
def test_query_random_bytes_as_a_file(tmp_path_factory, data, program):
    path = tmp_path_factory.mktemp("q") / "doc.json"
    path.write_bytes(data)
    allowed(core(query, program, file=str(path), timeout=TIMEOUT))


@settings(max_examples=MANY, deadline=None, suppress_health_check=SLOW)
@given(document=near_json(), fmt=st.sampled_from([{}, {"jsonc": True}, {"yaml": True},
                                                   {"jsonl": True}]))
def test_load_values_and_shape_on_near_json(document, fmt):
    allowed(core(sources.load_values, text=document, **fmt))
    allowed(core(shape, text=document, **fmt))


@settings(max_examples=SOME, deadline=None, suppress_health_check=SLOW)
@given(data=st.binary(max_size=300), stream=st.booleans())
def test_shape_random_bytes_as_a_file(tmp_path_factory, data, stream):
    path = tmp_path_factory.mktemp("s") / "doc.json"
    path.write_bytes(data)
    allowed(core(shape, file=str(path), stream=stream))


pointers = st.one_of(st.lists(keys | st.sampled_from(["0", "1", "-", "01", "99"]), max_size=4)
                     .map(lambda parts: "".join("/" + p for p in parts)), st.text(max_size=8))


@settings(max_examples=MANY, deadline=None, suppress_health_check=SLOW)
@given(value=json_values, path=pointers,
       fmt=st.sampled_from(["shape", "jqschema", "jsonschema"]), stats=st.booleans())
def test_shape_accepts_every_value_and_any_pointer(value, path, fmt, stats):
    code, out = core(shape, value=value, value_given=True, path=path, format=fmt,
                     stats=stats and fmt == "shape")
    assert code in (OK, "INVALID_POINTER", "NOT_FOUND")
    if path == "":
        assert code == OK  # the whole document always has a shape
        json.dumps(out.value)


operations = st.sampled_from(["set", "insert", "remove", "merge", "bogus"])


@settings(max_examples=MANY, deadline=None, suppress_health_check=SLOW)
@given(doc=json_values, op=operations, path=pointers, value=json_values)
def test_patch_a_value_all_or_nothing(doc, op, path, value):
    target = {"root": doc}
    before = copy.deepcopy(target)
    kwargs = {} if op == "remove" else {"value": value}
    code, _ = core(patch, target, op, "/root" + path if path.startswith("/") else path,
                   **kwargs)
    if code != OK:
        assert target == before


@settings(max_examples=SOME, deadline=None, suppress_health_check=SLOW)
@given(doc=json_values, op=operations, path=pointers, value=json_values,
       indent=st.sampled_from([None, 2, "\t"]))
def test_patch_a_file_equals_the_same_patch_on_the_value(tmp_path_factory, doc, op, path,
                                                          value, indent):
    file = tmp_path_factory.mktemp("p") / "doc.json"
    data = json.dumps({"root": doc}, indent=indent).encode()
    file.write_bytes(data)
    pointer = "/root" + path if path.startswith("/") else path
    kwargs = {} if op == "remove" else {"value": value}
    code, _ = core(patch, str(file), op, pointer, **kwargs)
    mirror = {"root": copy.deepcopy(doc)}
    same_code, _ = core(patch, mirror, op, pointer, **kwargs)
    if code != OK:
        assert file.read_bytes() == data
    elif pointer:  # a dict variable cannot become another type in place; a file can
        assert same_code == OK and json.loads(file.read_bytes()) == mirror
    assert [p.name for p in file.parent.iterdir()] == ["doc.json"]  # no stray temp file


rfc6902_ops = st.fixed_dictionaries(
    {"op": st.sampled_from(["add", "remove", "replace", "move", "copy", "test", "nope"])},
    optional={"path": pointers, "from": pointers, "value": json_values})
patch_documents = st.lists(rfc6902_ops, max_size=4) | json_values


@settings(max_examples=SOME, deadline=None, suppress_health_check=SLOW)
@given(doc=json_values, operations_=patch_documents, merge=json_values)
def test_rfc6902_and_merge_patches_on_files(tmp_path_factory, doc, operations_, merge):
    file = tmp_path_factory.mktemp("r") / "doc.json"
    data = json.dumps(doc, indent=2).encode()
    file.write_bytes(data)
    code, _ = core(patch, str(file), rfc6902=operations_)
    if code != OK:
        assert file.read_bytes() == data
    allowed(core(patch, str(file), merge_patch=merge))
    json.loads(file.read_bytes())  # whatever happened, the file is still JSON


tags = st.sampled_from(["div", "p", "a", "b", "pre", "code", "table", "tr", "td", "ul", "li",
                        "h1", "script", "style", "img", "br", "span", "section", "nav", "svg"])
attributes = st.sampled_from(['', ' href="/x"', ' href="javascript:x"', ' src="data:,"',
                              ' class="language-python"', ' href="http://[::1"', " id=cookie"])
texts = st.text(max_size=15) | st.sampled_from(["&amp;", "&#0;", "<!--", "]]>", "<?x?>", "\x00"])
html = st.recursive(texts, lambda inner: st.tuples(tags, attributes, st.lists(inner, max_size=4))
                    .map(lambda t: f"<{t[0]}{t[1]}>{''.join(t[2])}</{t[0]}>"), max_leaves=30)


@settings(max_examples=MANY, deadline=None, suppress_health_check=SLOW)
@given(page=html | st.text(max_size=200), raw=st.booleans(),
       base=st.sampled_from([None, "https://example.com/a/", "http://[::1"]))
def test_html_to_markdown_always_gives_text(page, raw, base):
    assert isinstance(to_markdown(page, base, raw=raw).markdown, str)


# ---------------------------------------------------------------- command line


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(program=programs, document=near_json(), flags=st.lists(st.sampled_from(
    ["-r", "-c", "-s", "-n", "-S", "--yaml", "--jsonc", "--jsonl", "-R"]), max_size=3))
def test_cli_query(program, document, flags):
    if program.startswith("-"):
        program = " " + program  # an option, not a filter, to argparse
    allowed(cli("query", *flags, "--timeout", str(TIMEOUT), program, f"--input={document}"))


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(document=near_json(), path=pointers, fmt=st.sampled_from(["shape", "jqschema",
                                                                 "jsonschema"]))
def test_cli_inspect(document, path, fmt):
    allowed(cli("inspect", f"--input={document}", f"--path={path}", "--format", fmt))


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(doc=json_values, words=st.lists(operations | pointers | st.text(max_size=8), max_size=4))
def test_cli_patch(tmp_path_factory, doc, words):
    file = tmp_path_factory.mktemp("c") / "doc.json"
    data = json.dumps(doc).encode()
    file.write_bytes(data)
    words = [w if not w.startswith("-") else " " + w for w in words]
    code, _ = cli("patch", str(file), *words)
    if code != OK:
        assert file.read_bytes() == data


# ---------------------------------------------------------------- magics


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(program=programs, document=near_json())
def test_magic_jq(ip, program, document):
    line = f"{shlex.quote(program)} --input {shlex.quote(document)} --timeout {TIMEOUT}"
    allowed(magic(ip, "jq", line))


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(program=programs, value=json_values)
def test_magic_cell_jq_on_a_variable(ip, program, value):
    ip.user_ns["fuzz_doc"] = value
    try:
        ip.run_cell_magic("jq", f"fuzz_doc --var --timeout {TIMEOUT}", program + "\n# end")
    except Exception as exc:  # noqa: BLE001 - the assertion names what escaped
        # a UsageError (the magics' MagicError is one): one line, no traceback, a code first
        assert isinstance(exc, UsageError) and str(exc).split(":")[0].isupper(), exc


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(document=near_json(), path=pointers)
def test_magic_inspect(ip, document, path):
    allowed(magic(ip, "inspect", f"--input {shlex.quote(document)} --path {shlex.quote(path)}"))


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(doc=json_values, op=operations, path=pointers, value=json_values)
def test_magic_jsonpatch_on_a_variable(ip, doc, op, path, value):
    target = {"root": doc}
    ip.user_ns["fuzz_target"] = target
    before = copy.deepcopy(target)
    value_word = "" if op == "remove" else shlex.quote(json.dumps(value))
    line = f"fuzz_target --var {op} {shlex.quote('/root' + path)} {value_word}"
    code, _ = magic(ip, "jsonpatch", line)
    if code != OK:
        assert target == before


# ---------------------------------------------------------------- tool protocol

DATA_TOOLS = ["jq", "query_json", "query_yaml", "json_inspect", "json_patch", "read_file"]


def tool_parameters() -> dict[str, list[str]]:
    from jqmagic import tools

    return {d["name"]: list(d["parameters"].get("properties", {})) for d in tools.definitions()
            if d["name"] in DATA_TOOLS}


@st.composite
def tool_requests(draw) -> tuple[str, dict]:
    name = draw(st.sampled_from(DATA_TOOLS))
    names = tool_parameters()[name] + ["bogus"]
    values = json_values | near_json() | programs | pointers | st.sampled_from(
        ["doc.json", "doc.yaml", "missing.json", ".", "/etc/passwd", "../doc.json"])
    return name, draw(st.dictionaries(st.sampled_from(names), values, max_size=5))


@settings(max_examples=SOME, deadline=None, suppress_health_check=SLOW)
@given(request=tool_requests())
def test_tool_calls_answer_success_or_a_stable_error(tmp_path_factory, monkeypatch, request):
    """Random requests to the data tools, confined to a folder by the sandbox."""
    from jqmagic import tools
    from jqmagic.core.errors import CODES
    from jqmagic.core.settings import settings as core_settings

    folder = tmp_path_factory.mktemp("tool")
    (folder / "doc.json").write_text('{"a": [1, 2], "b": {"c": null}}')
    (folder / "doc.yaml").write_text("a: [1, 2]\nb: {c: null}\n")
    monkeypatch.chdir(folder)
    core_settings.sandbox, core_settings.allowed_roots = True, [str(folder)]
    name, arguments = request
    response = tools.call(name, arguments)
    assert isinstance(response["success"], bool)
    if not response["success"]:
        assert response["error_code"] in CODES and response["error"]
    json.dumps(response)


@settings(max_examples=FEW, deadline=None, suppress_health_check=SLOW)
@given(name=st.sampled_from(DATA_TOOLS), text=near_json() | st.text(max_size=40))
def test_the_tool_protocol_on_random_stdin(tmp_path_factory, monkeypatch, name, text):
    import io

    monkeypatch.chdir(tmp_path_factory.mktemp("stdin"))  # whatever it names, nothing of ours

    from jqmagic.core.errors import CODES
    from jqmagic.tools.protocol import serve

    out, err = io.StringIO(), io.StringIO()
    status = serve(name, io.StringIO(text), out, err)
    response = json.loads(out.getvalue())
    assert status == (0 if response["success"] else 1) and "Traceback" not in err.getvalue()
    assert response["success"] or response["error_code"] in CODES
