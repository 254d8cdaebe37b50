"""The option table (flags.py): one Flag per option makes both faces' parsers, and turns
parsed flags into query() keywords and exactly one source."""

from __future__ import annotations

import argparse

import pytest

from jqmagic import flags
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import JsonText


def parser(*groups: tuple[flags.Flag, ...], face: str = flags.CLI) -> argparse.ArgumentParser:
    made = argparse.ArgumentParser()
    made.add_argument("words", nargs="*")
    flags.add_to_parser(made, [flag for group in groups for flag in group], face)
    return made


def test_a_face_gets_only_its_flags():
    cli = parser(flags.SOURCE, flags.QUERY)
    options = {o for action in cli._actions for o in action.option_strings}
    assert {"-r", "--raw-output", "--stream", "-x"} <= options
    assert not {"--var", "--to", "--out", "--clear-cache"} & options
    magic = {o for flag in flags.for_face(flags.QUERY, flags.MAGIC) for o in flag.names}
    assert {"--to", "--out"} <= magic and "--stream" not in magic


def test_parsed_flags_become_query_keywords_without_the_face_s_own():
    args = parser(flags.SOURCE, flags.QUERY).parse_args(
        [".", "-rc", "--indent", "4", "--no-cache", "--arg", "x", "1", "--jsonl"])
    keywords = flags.query_keywords(args)
    assert keywords["raw"] and keywords["compact"] and keywords["indent"] == 4
    assert keywords["cache"] is False and keywords["jsonl"] is True
    assert keywords["library_paths"] == []
    assert not {"arg", "argjson", "in_place", "dry_run", "text", "exec"} & set(keywords)


def test_named_arguments_keep_json_text_as_written():
    args = parser(flags.QUERY).parse_args(["--arg", "s", "1", "--argjson", "n", "1.50"])
    bound = flags.jq_args(args)
    assert bound == {"s": "1", "n": "1.50"} and isinstance(bound["n"], JsonText)
    with pytest.raises(JqMagicError) as info:
        flags.jq_args(parser(flags.QUERY).parse_args(["--argjson", "n", "{"]))
    assert info.value.code == "INVALID_JSON"


def test_exactly_one_source_is_named():
    source = parser(flags.SOURCE)
    assert flags.named_source(source.parse_args([]), []) == {}
    assert flags.named_source(source.parse_args([]), ["a.json"]) == {"file": "a.json"}
    assert flags.named_source(source.parse_args([]), ["a", "b"]) == {"file": ["a", "b"]}
    assert flags.named_source(source.parse_args(["--input", "1"]), []) == {"text": "1"}
    with pytest.raises(JqMagicError) as info:
        flags.named_source(source.parse_args(["--input", "1", "-x", "echo"]), ["a.json"])
    assert info.value.code == "AMBIGUOUS_SOURCE"
    assert "(--exec, SOURCE, --input)" in info.value.message


def test_a_dask_address_is_not_a_filter():
    dask = parser(flags.QUERY)
    assert dask.parse_args(["--dask=tcp://h:8786"]).dask == "tcp://h:8786"
    assert dask.parse_args(["--dask"]).dask == ""
    with pytest.raises(SystemExit):
        dask.parse_args(["--dask=.a"])


@pytest.mark.parametrize("argv", [
    [".", "-c"], ["-rn", "."], ["--indent", "4", "."], ["--tab", "-S", "."],
    ["--parallel", "."], ["--parallel=3", "."], ["--dask", "tcp://h:8786", "."],
    ["--limit", "5", "--timeout", "2.5", "."], ["-L", "/tmp", "-L/x", "."],
    ["--no-cache", "--all", "--jsonl", "."], ["--seq", "--stream", "-e", "."],
    ["--input", "1", "."], ["-x", "echo 1", "."], ["--reduce", "add", "--parallel=2", "."]])
def test_query_options_read_without_argparse_as_argparse_reads_them(argv):
    from jqmagic.cli import commands, jqargs, jqcli

    table = flags.option_table(jqcli.QUERY_FLAGS, flags.CLI)
    words = jqargs.split(table, argv)
    argparse_s = vars(commands.build_parser("query")[1]["query"].parse_args(words.options))
    assert vars(flags.read_options(words.options, table)) == {
        k: v for k, v in argparse_s.items() if k not in ("filter", "files", "run", "command")}


@pytest.mark.parametrize("words", [["--limit=x"], ["--timeout=-1"], ["-h"], ["--raw=1"]])
def test_what_argparse_must_word_is_left_to_it(words):
    from jqmagic.cli import jqcli

    assert flags.read_options(words, flags.option_table(jqcli.QUERY_FLAGS, flags.CLI)) is None
