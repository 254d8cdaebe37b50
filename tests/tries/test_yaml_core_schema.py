"""YAML is read with YAML 1.2's core schema (as yq, gojq and GitHub read it), by both
readers, every face and the write-back; what is written stays a string for YAML 1.1 and
1.2 readers alike. A GitHub Actions workflow's ``on:`` is the key "on", not "true"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import patch
from jqmagic.core.sources.yamlbuild import build_documents
from jqmagic.core.sources.yamldocs import compose_yaml, parse_yaml
from jqmagic.notebook.outputs import yaml_text

JQMAGIC = Path(sys.executable).with_name("jqmagic")
WORKFLOW = """\
name: ci  # a comment
on:
  push: {branches: [main]}
jobs:
  test:
    runs-on: ubuntu-latest
    continue-on-error: yes
"""
SCALARS = """\
- [on, off, yes, no, y, n, On, NO]
- [true, True, TRUE, false, False, FALSE]
- [~, null, Null, NULL, '']
- [0o17, 017, 0x1F, +12, -0, 0b101, 1_000, '1:30', 1:30]
- [1e3, 1.5, .5, 1., -.Inf, .inf]
- [2001-12-14, 2001-12-14t21:59:43.10-05:00, =, <<x]
"""
EXPECTED = [
    ["on", "off", "yes", "no", "y", "n", "On", "NO"],
    [True, True, True, False, False, False],
    [None, None, None, None, ""],
    [15, 17, 31, 12, 0, "0b101", "1_000", "1:30", "1:30"],
    [1000.0, 1.5, 0.5, 1.0, float("-inf"), float("inf")],
    ["2001-12-14", "2001-12-14t21:59:43.10-05:00", "=", "<<x"],
]


def test_the_scalars_of_the_core_schema():
    assert build_documents(SCALARS) == [EXPECTED]
    assert [v for _, v in compose_yaml(SCALARS)] == [json.loads(json.dumps(EXPECTED))]


@pytest.mark.parametrize("extra", ["", "tagged: !!str x\n"], ids=["built", "loader"])
def test_a_workflows_on_is_the_key_on(extra):
    """Both readers: the event builder and, when a tag sends the stream to it, the loader."""
    [doc] = parse_yaml(WORKFLOW + extra)
    assert list(doc)[:3] == ["name", "on", "jobs"] and doc["on"] == {"push": {
        "branches": ["main"]}}
    assert doc["jobs"]["test"]["continue-on-error"] == "yes"


def test_keys_and_merges_as_before():
    [doc] = parse_yaml("base: &b {x: 1}\nm: {<<: *b, y: 2}\ntrue: t\n2: two\nyes: y\n")
    assert doc == {"base": {"x": 1}, "m": {"x": 1, "y": 2}, "true": "t", "2": "two",
                   "yes": "y"}


@pytest.mark.parametrize("timeout", [[], ["--timeout", "20"]], ids=["here", "worker"])
def test_the_command_line_reads_on(tmp_path, timeout):
    (tmp_path / "ci.yml").write_text(WORKFLOW)
    done = subprocess.run([str(JQMAGIC), "query", *timeout, "-c", ".on.push, keys", "ci.yml"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (done.stdout, done.returncode) == (
        '{"branches":["main"]}\n["jobs","name","on"]\n', 0), done.stderr


def test_an_integer_past_pythons_digits_is_a_clear_error():
    """A 5,001-digit integer crashed the worker (ValueError); now INVALID_YAML, a hint."""
    for text in ("x: 1" + "0" * 5000 + "\n", "x: !!int 1_" + "0" * 5000 + "\n"):
        with pytest.raises(JqMagicError) as refused:
            parse_yaml(text, "big.yaml")
        assert refused.value.code == "INVALID_YAML" and "line 1" in refused.value.message
        assert "Quote it" in refused.value.hint


@pytest.mark.parametrize("new", ["on", "yes", "0o17", "1e3", "017", "1_000", "2024-01-02",
                                 "null", "~", "plain"])
def test_a_string_written_back_stays_a_string_for_both_schemas(tmp_path, new):
    path = tmp_path / "ci.yml"
    path.write_text(WORKFLOW)
    patch(path, "set", "/on/push/branches/0", new)
    text = path.read_text()
    assert "# a comment" in text and "\non:\n" in text
    assert parse_yaml(text)[0]["on"]["push"]["branches"] == [new]
    assert yaml.safe_load(text)[True]["push"]["branches"] == [new]  # a YAML 1.1 reader
    assert (f"[{new}]" in text) == (new == "plain")


def test_a_workflow_patched_by_its_on_key(tmp_path):
    path = tmp_path / "ci.yml"
    path.write_text(WORKFLOW)
    patch(path, jq='.on.pull_request = {} | .jobs.test["continue-on-error"] = false')
    assert path.read_text() == WORKFLOW.replace("yes", "false").replace(
        "jobs:", "  pull_request: {}\njobs:")


def test_yaml_output_quotes_what_either_schema_reads_otherwise():
    values = [{"a": ["on", "0o17", "1e3", "1_000", "017", "x", 1, 1.5, True, None]}]
    text = yaml_text(values)
    assert parse_yaml(text) == values
    assert yaml.safe_load(text) == values[0]


def test_a_key_the_reader_reads_as_a_number_is_found_by_the_patch(tmp_path):
    """The patch named keys with PyYAML's YAML 1.1 constructor: `017:` was "15" to it and
    "17" to the reader, so /a/17 was not found."""
    path = tmp_path / "k.yml"
    path.write_text("a:\n  017: x\n  0o17: y\n")
    assert parse_yaml(path.read_text()) == [{"a": {"17": "x", "15": "y"}}]
    patch(path, "set", "/a/17", "z")
    patch(path, "set", "/a/15", "w")
    assert path.read_text() == "a:\n  017: z\n  0o17: w\n"


def test_without_libyaml_the_same_schema():
    """PyYAML without its C extension: the pure-Python loader reads the core schema too."""
    script = (
        "import sys; sys.modules['yaml._yaml'] = None\n"
        "from jqmagic.core.sources.yamldocs import parse_yaml\n"
        "from jqmagic.core.sources.yamlschema import safe_loader\n"
        "assert safe_loader().__name__ == 'PyLoader'\n"
        "print(parse_yaml('on: [yes, 0o17, 017, 1e3, ~]\\nk: !!str x\\n'))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout == "[{'on': ['yes', 15, 17, 1000.0, None], 'k': 'x'}]\n", done.stderr


@pytest.mark.parametrize("extra", ["", "tagged: !!str x\n"], ids=["built", "loader"])
def test_keys_that_are_one_python_key_stay_two_json_keys(extra):
    """`true` and `1` (or `false` and `0`, `1` and `1.0`) were one Python key, so
    `true: t` then `1: one` read {"true": "one"}; dates and binary keys were refused with
    "A value of type keys must be str ... cannot be turned into JSON"."""
    text = "true: t\n1: one\nfalse: f\n0: z\n1.0: r\n~: n\n" + extra
    [doc] = parse_yaml(text)
    assert list(doc.items())[:6] == [("true", "t"), ("1", "one"), ("false", "f"), ("0", "z"),
                                     ("1.0", "r"), ("null", "n")]
    assert parse_yaml("!!timestamp 2020-01-02: d\n!!binary aGk=: b\n") == [
        {"2020-01-02": "d", "hi": "b"}]
    [merged] = parse_yaml("a: &a {1: x}\nb: {<<: *a, true: y}\n" + extra)
    assert merged["b"] == {"1": "x", "true": "y"}
