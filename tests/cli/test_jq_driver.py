"""jq 1.8.2's ``main.c`` to the last bit: each class of command line where `jqmagic query`
once differed from the jq 1.8.2 command line, run through both (stdout and exit status
byte for byte), generated where the class is a family."""

from __future__ import annotations

import itertools
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.errors import JqMagicError
from tests.cli import dropin

EXAMPLES = int(os.environ.get("JQ_DROPIN_EXAMPLES", 150))

# Files the command lines name (written in a fresh folder, named by absolute path).
FILES = {
    "ok.json": '{"x":1}\n',
    "two.json": "1\n2\n",
    "nums.json": "1 2\n3.10 1E+2 100000000000000000000001\n",
    "one": "1",  # no newline: what follows in the next file runs on
    "two": "2",
    "open.json": '{"a":',
    "close.json": "1}\n",
    "array": "[1] 3",
    "bom.json": '\ufeff{"b":2}',
    "string": '"s"',
    "true": "true",
    "bad.json": "{",
    "lenient": "nan 01\n1.50 .5 -0",
    "doc.yaml": "a: 1\nb: [2]\n",
    "doc.jsonc": '// c\n{"a": 1,}\n',
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return dropin.files_in(tmp_path_factory.mktemp("driver"), FILES)


def same_as_jq(argv: list[str], stdin: str, folder) -> None:
    argv = [str(folder / w[1:]) if w.startswith("@") else w for w in argv]
    expected = dropin.jq(argv, stdin, {"NO_COLOR": ""})
    got = dropin.jqmagic(argv, stdin, {"NO_COLOR": ""})
    assert (got.stdout, got.status) == (expected.stdout, expected.status), \
        (argv, got.stderr, expected.stderr)


CASES = [
    # the exit status is the last input's
    ("last input fine", [".b"], 'true {"b":1}'),
    ("last input failed", [".b"], '{"b":1} true'),
    ("middle input failed", [".b"], '{"b":1} 3 {"b":2}'),
    ("last of files fine", [".x", "@two.json", "@ok.json"], ""),
    ("-e after a failed last", ["-e", ".b"], '{"b":1} true'),
    # files are one stream
    ("an object across files", ["-c", ".", "@open.json", "@close.json"], ""),
    ("numbers run together", ["-c", ".", "@one", "@two"], ""),
    ("three files run together", ["-c", ".", "@one", "@one", "@two"], ""),
    ("a value then a number", ["-c", ".", "@array", "@two"], ""),
    ("true then a number", ["-c", ".", "@true", "@two"], ""),
    ("strings apart", ["-c", ".", "@string", "@string"], ""),
    ("a BOM opens the first file", ["-c", ".", "@bom.json", "@ok.json"], ""),
    ("a BOM opens a later file", ["-c", ".", "@ok.json", "@bom.json"], ""),
    ("a BOM after a file with no newline", ["-c", ".", "@one", "@bom.json"], ""),
    ("- twice", ["-c", ".", "-", "-"], "5"),
    ("- among the files", ["-c", ".", "@ok.json", "-", "@two.json"], "7"),
    ("- first", ["-c", ".", "-", "@ok.json"], "[3]"),
    ("- last, running on", ["-c", ".", "@one", "-"], "2"),
    ("input_filename of -", ["-c", "[., input_filename]", "@ok.json", "-"], "1"),
    ("-n and input from -", ["-nc", "[inputs]", "-", "@two.json"], "0"),
    ("- twice among files", ["-c", "[., input_filename]", "-", "-", "@ok.json"], "1 2"),
    ("- and a number running on", ["-c", "[., input_filename]", "-", "@two.json"], "3"),
    ("- with a BOM later", ["-c", ".", "-", "@bom.json"], "{}"),
    # any word after --arg NAME is its value; --indent as jq reads it
    ("--arg takes -c", ["-nc", "[$x]", "--arg", "x", "-c"], ""),
    ("--arg takes --", ["-nc", "[$x, $ARGS.positional]", "--arg", "x", "--", "--args", "a"],
     ""),
    ("--argjson takes -1", ["-nc", "$x", "--argjson", "x", "-1"], ""),
    ("--arg short of words", ["-n", "$x", "--arg", "x"], ""),
    ("--indent -1 is a tab", ["--indent", "-1", "."], '{"a":[1]}'),
    ("--indent -1 then -c", ["--indent", "-1", "-c", "."], '{"a":[1]}'),
    ("--indent -1 then --tab", ["--indent", "-1", "--tab", "."], '{"a":[1]}'),
    ("--indent 8 then --indent 1", ["--indent", "8", "--indent", "1", "."], "[1]"),
    ("--indent 1 then --indent 8", ["--indent", "1", "--indent", "8", "."], "[1]"),
    ("--indent takes -c", ["--indent", "-c", "."], "[1]"),
    ("--indent +3", ["--indent", "+3", "."], "[1]"),
    ("--indent ' 3'", ["--indent", " 3", "."], "[1]"),
    ("--indent 0", ["--indent", "0", "."], '{"a":[1]}'),
    ("--tab then --indent 3", ["--tab", "--indent", "3", "."], '{"a":[1]}'),
    ("-c then --tab", ["-c", "--tab", "."], '{"a":[1]}'),
    ("--indent=3 is no jq option", ["--indent=3", "."], "[1]"),
    ("--indent alone", [".", "--indent"], "[1]"),
    # literals kept; $ARGS.named in jq's order
    ("--slurpfile keeps literals", ["-nc", "$x", "--slurpfile", "x", "@nums.json"], ""),
    ("--jsonargs keeps literals",
     ["-nc", "$ARGS", "--jsonargs", "1.000000000000000000001", "100000000000000000000001",
      "[1.50]"], ""),
    ("--args and --jsonargs mixed", ["-nc", "$ARGS.positional", "--args", "1", "--jsonargs",
                                     "1.0", "--args", "x"], ""),
    ("named order", ["-nc", "$ARGS.named", "--arg", "b", "1", "--argjson", "a", "2.0",
                     "--arg", "c", "3"], ""),
    ("named order with files", ["-nc", "$ARGS.named", "--rawfile", "z", "@two.json", "--arg",
                                "a", "1", "--slurpfile", "b", "@ok.json"], ""),
    ("first binding wins", ["-nc", "$ARGS.named", "--arg", "a", "1", "--argjson", "a", "{",
                            "--slurpfile", "a", "@missing"], ""),
    ("a bad --slurpfile", ["-n", "1", "--slurpfile", "a", "@bad.json"], ""),
    ("--slurpfile as jq's parser reads", ["-nc", "$a", "--slurpfile", "a", "@lenient"], ""),
    ("--argjson nan", ["-nc", "$x", "--argjson", "x", "nan"], ""),
    ("--argjson 01", ["-nc", "$x", "--argjson", "x", "01"], ""),
    ("--argjson .5", ["-nc", "$x", "--argjson", "x", ".5"], ""),
    ("--argjson 1.", ["-nc", "$x", "--argjson", "x", "1."], ""),
    ("--argjson two values", ["-nc", "$x", "--argjson", "x", "1 2"], ""),
    ("--argjson injected", ["-nc", "$x", "--argjson", "x", '1, "y": 2'], ""),
    ("--jsonargs NaN", ["-nc", "$ARGS.positional", "--jsonargs", "NaN", "Infinity"], ""),
    ("--jsonargs bad", ["-nc", "$ARGS.positional", "--jsonargs", "[1,]"], ""),
    ("a missing --rawfile", ["-n", "1", "--rawfile", "a", "@missing"], ""),
    # files are checked when jq reads them
    ("-n never reads a missing file", ["-n", "1", "@missing.json"], ""),
    ("-n reads it with input", ["-n", "input", "@missing.json", "@ok.json"], ""),
    ("a missing file among others", ["-c", ".", "@missing.json", "@ok.json"], ""),
    ("a missing file and a compile error", [".a.[", "@missing.json"], ""),
    ("a folder among the files", ["-c", ".", "@", "@ok.json"], ""),
    ("a folder and a compile error", ["--", "--", "@"], ""),
    # halt_error's status as jq's main.c computes it
    ("halt_error(-1)", ["-n", "halt_error(-1)"], ""),
    ('"x" | halt_error(-1)', ["-n", '"x" | halt_error(-1)'], ""),
    ("halt_error(-1) with -e", ["-en", "halt_error(-1)"], ""),
    ("halt_error(-4) with -e", ["-en", "halt_error(-4)"], ""),
    ("halt_error(256)", ["-n", "halt_error(256)"], ""),
    ("halt_error(300)", ["-n", "halt_error(300)"], ""),
    ("halt_error(1.5)", ["-n", "halt_error(1.5)"], ""),
    ('halt_error("x")', ["-n", '"x" | halt_error("x")'], ""),
    ("halt after a failed input", ["if . == 2 then halt else error end"], "1 2"),
    # YAML and JSONC read by suffix are jqmagic's (listed in the README): not compared here
]




@dropin.needs_oracle
@pytest.mark.parametrize(("argv", "stdin"), [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_as_jq(argv, stdin, folder):
    same_as_jq(argv, stdin, folder)


INVALID_UTF8 = [b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xc0\xaf",
                b"\xf5\x80\x80\x80", b"\x80\x80", b"\xe0\x80\xaf", b"\xf4\x90\x80\x80"]


@dropin.needs_oracle
@pytest.mark.parametrize("bad", INVALID_UTF8 + [a + b for a, b in
                                                itertools.combinations(INVALID_UTF8[:5], 2)],
                         ids=lambda b: b.hex())
def test_invalid_utf8_on_stdin_is_replaced_as_jq_replaces_it(bad):
    stdin = b'"a' + bad + b'b" "' + bad + b'"'
    expected = dropin.jq(["-c", "[., length, explode]"], stdin)
    got = dropin.jqmagic(["-c", "[., length, explode]"], stdin)
    assert (got.stdout, got.status) == (expected.stdout, expected.status), got.stderr


# Bindings in any order and kind: $ARGS.named is jq's object, key for key.
BINDING = st.tuples(st.sampled_from(["--arg", "--argjson", "--rawfile", "--slurpfile"]),
                    st.sampled_from("abcd"),
                    st.sampled_from(["1", "1.50", "-c", "[1E+2]", '"s"']))


@dropin.needs_oracle
@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=list(HealthCheck))
@given(bindings=st.lists(BINDING, max_size=5), positional=st.lists(
    st.sampled_from([["--args", "x", "-1"], ["--jsonargs", "2.50", "-0"], ["--args"]]),
    max_size=2))
def test_bindings_in_any_order_as_jq(bindings, positional, folder):
    argv = ["-nc", "$ARGS"]
    for option, name, value in bindings:
        if option in ("--rawfile", "--slurpfile"):
            value = "@nums.json" if value.startswith("1") else "@ok.json"
        argv += [option, name, value]
    argv += [w for words in positional for w in words]
    same_as_jq(argv, "", folder)


# A big file streams in every spelling of a streamable form (--stream-eval forces the
# streamed pass, which refuses a program that does not stream): the answer is jq's.
WALKS = [".readings[].v", ".readings[] | .v", ".readings | .[] | .v", ".readings | .[].v",
         '.["readings"][]["v"]', ".readings[] .v", ". | .readings[] | .v"]
FORMS = ["[{}] | add", "{}", "first({})", "limit(2; {})", "[{}] | length", "[{} | . * 2]"]


@dropin.needs_oracle
@pytest.mark.parametrize("program", [form.format(walk) for form in FORMS for walk in WALKS])
def test_every_spelling_of_a_streamable_form_streams(program, tmp_path):
    doc = tmp_path / "readings.json"
    doc.write_text('{"readings": [{"v": 1.50}, {"v": 2}, {"v": 1E+2}], "n": 1}')
    expected = dropin.jq(["-c", program, str(doc)], "")
    got = dropin.jqmagic(["--stream-eval", "-c", program, str(doc)], "")
    assert (got.stdout, got.status) == (expected.stdout, expected.status), got.stderr


def test_input_filename_names_the_users_yaml_and_jsonc_files(folder):
    names = [str(folder / n) for n in ("doc.yaml", "doc.jsonc", "ok.json")]
    got = dropin.jqmagic(["-c", "[input_filename, .]", *names], "")
    assert got.stdout.decode().splitlines() == [
        json.dumps([names[0], {"a": 1, "b": [2]}], separators=(",", ":")),
        json.dumps([names[1], {"a": 1}], separators=(",", ":")),
        json.dumps([names[2], {"x": 1}], separators=(",", ":"))], got.stderr


def test_input_filename_of_yaml_is_the_users_in_the_sandbox_too(folder):
    from jqmagic.core.settings import using

    names = [str(folder / n) for n in ("doc.yaml", "ok.json")]
    with using(sandbox=True, allowed_roots=(str(folder),)):
        got = dropin.jqmagic(["-c", "input_filename", *names], "")
        assert b"SANDBOX_DENIED" in dropin.jqmagic([".", __file__], "").stderr  # it is on
    assert got.stdout.decode().splitlines() == [json.dumps(n) for n in names], got.stderr


@dropin.needs_oracle
@pytest.mark.parametrize("text", ['{\n"a": 1\n}\n\n', '{\n"a": 1\n}', '{"a": 1}\n', "{}"])
def test_in_place_gives_each_file_its_name_and_line_as_jq(text, tmp_path):
    program = ".f = input_filename | .n = input_line_number"
    for name in ("one.json", "two.json"):
        (tmp_path / name).write_text(text)
    expected = [dropin.jq(["-c", program, str(tmp_path / n)], "").stdout
                for n in ("one.json", "two.json")]
    run = dropin.jqmagic(["-i", program, str(tmp_path / "*.json")], "")
    assert run.status == 0, run.stderr
    assert [json.dumps(json.loads((tmp_path / n).read_text()), separators=(",", ":")).encode()
            + b"\n" for n in ("one.json", "two.json")] == expected


@pytest.mark.parametrize(("program", "status"), [("halt_error(-1)", 0), ("1, halt_error(300)", 44),
                                                 ("halt_error(2)", 2)])
def test_halt_error_exits_as_jq_on_a_terminal_too(program, status):
    from tests.cli.terminal import on_terminal

    assert on_terminal("query", "-n", program).returncode == status


@dropin.needs_oracle
@pytest.mark.parametrize("flag", [["--parallel"], ["--parallel=2"]])
def test_parallel_alone_leaves_the_program_word_alone(flag, folder):
    files = [str(folder / n) for n in ("two.json", "nums.json", "ok.json")]
    program = "select(type == \"number\") | . * 2"
    expected = dropin.jq(["-c", program, *files], "")
    got = dropin.jqmagic([*flag, "-c", program, *files], "")
    assert (got.stdout, got.status) == (expected.stdout, expected.status), got.stderr


def test_parallel_takes_a_count_only_attached():
    from jqmagic.cli.commands import build_parser
    from jqmagic.cli.jqcli import parse

    query = build_parser("query")[1]["query"]
    alone = parse(query, ["--parallel", ".a", "x.json"])
    assert (alone.filter, alone.files, alone.parallel) == (".a", ["x.json"], os.cpu_count())
    assert parse(query, [".a", "--parallel=3", "x.json"]).parallel == 3
    with pytest.raises(JqMagicError) as info:  # a usage error: not a count
        parse(query, ["--parallel=x", ".a"])
    assert "'x' is not a count of workers" in info.value.message


# Standard input's bytes as jq's reader takes them: BOMs, NULs, CRLF, cut UTF-8 in raw
# input and in strings (up to a closing quote, an escaped one too), RS with --seq.
STDIN_BYTES = [(["-c", "."], b"\xef\xbb\xbf[1]"), (["-c", "."], b"[1]\xef\xbb\xbf[2]"),
               (["-c", "."], b'"a\x00b"'), (["-c", "."], b"1\r\n2\r\n"),
               (["-R", "."], b"a\xffb\nc"), (["-Rs", "."], b"a\xe2\x82\n"),
               (["-c", "."], b'"\xf0a"'), (["-c", "."], b'"\xf0\x9f\x98"x'),
               (["-c", "."], b'"a\\"\xf0"'), (["-c", "[., input_filename]", "-"], b"\xef\xbb\xbf3"),
               (["--seq", "-c", "."], b"\x1e1\x1e[2"), (["-e", ".[]"], b"[] 1"),
               (["-e", ".[]?"], b"1 [null]")]


@dropin.needs_oracle
@pytest.mark.parametrize(("argv", "stdin"), STDIN_BYTES, ids=lambda v: repr(v)[:40])
def test_standard_input_bytes_as_jq(argv, stdin):
    expected, got = dropin.jq(argv, stdin), dropin.jqmagic(argv, stdin)
    assert (got.stdout, got.status) == (expected.stdout, expected.status), got.stderr


@dropin.needs_oracle
@pytest.mark.parametrize("names", [["true", "ok.json"], ["ok.json", "true"]])
def test_parallel_exits_with_the_last_inputs_status(names, folder):
    files = [str(folder / n) for n in names]
    expected = dropin.jq(["-c", ".x", *files], "")
    got = dropin.jqmagic(["--parallel=2", "-c", ".x", *files], "")
    assert (got.stdout, got.status) == (expected.stdout, expected.status), got.stderr


@dropin.needs_oracle
@pytest.mark.parametrize(("args", "text"), [
    ([".b"], 'true {"b":1}'), ([".b"], '{"b":1} true'), ([".b"], 'true false {"b":2}'),
    (["-e", ".b"], 'true {"b":null}'), (["-e", ".b"], 'true {"b":1}'),
    (["-e", ".b"], '{"b":1} true'), (["-e", ".[]"], '"s" []'),
])
def test_a_terminal_exits_with_the_last_inputs_status_as_jq(args, text, tmp_path):
    """An error in an earlier input is said, not counted: the bounded view's exit status
    is the last input's, as main.c's."""
    from tests.cli.terminal import on_terminal

    path = tmp_path / "inputs.json"
    path.write_text(text)
    expected = dropin.jq([*args, str(path)], "").status
    assert on_terminal("query", *args, str(path)).returncode == expected
