"""YAML built from libyaml's events gives the safe loader's values (then JSON's), or says
it cannot and the safe loader reads the stream."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.errors import JqMagicError
from jqmagic.core.sources.yamlbuild import Unusual, build_documents
from jqmagic.core.sources.yamldocs import compose_yaml, parse_yaml

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"


def loader_values(text: str) -> list:
    return [value for _, value in compose_yaml(text)]


def same(a, b) -> bool:
    """Equal as JSON text: types, key order, -0.0 and NaN included."""
    return json.dumps(a) == json.dumps(b)


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in (".yaml", ".yml"))


@pytest.mark.skipif(not corpus_files(), reason="../shared/corpus holds no YAML here")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus(path):
    text = path.read_text(encoding="utf-8")
    assert same(build_documents(text), loader_values(text))


CASES = [
    "a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: ~\ng: null\nh:\n",
    "- 0o17\n- 017\n- 0x1F\n- 0b101\n- 1_000\n- 1:30\n- -1:30:00\n- +12\n- 1e3\n- 1.5e3\n",
    "- .inf\n- -.Inf\n- .5\n- 1.\n- -0.0\n- 190:20:30.15\n- 12345678901234567890123\n",
    "- 2001-12-14\n- 2001-12-14t21:59:43.10-05:00\n- 2001-12-14 21:59:43.10\n",
    "- '1'\n- \"true\"\n- |\n  text\n- >\n  folded\n  line\n- 'a''b'\n",
    "base: &b {x: 1, y: 2}\nother: &o {w: 3, z: 4}\nm:\n  z: 0\n  <<: [*b, *o]\n  x: 9\n",
    "a: &a {k: 1}\nb: {<<: *a}\nc:\n  <<: *a\n  <<: {j: 2}\n",
    "1: a\n'1': b\n1: c\ntrue: t\n~: n\n1.5: f\n",
    "--- 1\n--- [a, b]\n---\n...\n--- {a: *x}\n",
    "k: !!str 123\n",
    "base: &b {x: 1, y: 2}\nother: &o {y: 3, z: 4}\nm:\n  z: 0\n  <<: [*b, *o]\n  x: 9\n",
    "a: &a {x: 1, x: 2}\nb: {<<: *a}\n",
    "a: &a {x: 1}\nb: &b {<<: *a, x: 2}\nc: {<<: *b}\n",
    "? [a, b]\n: c\n",
    "a: &x [*x]\n",
    "a: =\n",
    "s: \"\\ud800\"\n",
    "- &a [1, 2]\n- *a\n- *a\n",
    "",
    "# only a comment\n",
    "- [unclosed\n",
]


def _built_as_the_loader_reads(text: str) -> None:
    """The values built from ``text``'s events are the safe loader's; where the loader
    refuses the text, the builder declines it (Unusual); where the builder declines,
    the loader answers (parse_yaml's answer is the loader's)."""
    try:
        expected = loader_values(text)
    except JqMagicError:
        with pytest.raises(Unusual):
            build_documents(text)
        return
    try:
        got = build_documents(text)
    except Unusual:
        return
    assert same(got, expected)
    assert same(parse_yaml(text), expected)


@pytest.mark.parametrize("text", CASES)
def test_cases(text):
    _built_as_the_loader_reads(text)


def test_the_builder_reads_the_common_cases():
    """Merge keys, keys that are not text, YAML 1.1 scalars: built, not handed over."""
    for text in CASES[:8]:
        build_documents(text)


def test_alias_bomb_refused():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 7):
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} " + "[" + ", ".join(
            [f"*{chr(96 + i)}"] * 10) + "]")
    with pytest.raises(JqMagicError, match="alias"):
        parse_yaml("\n".join(lines) + "\n")


_TOKENS = st.sampled_from([
    "yes", "No", "on", "Off", "y", "n", "true", "False", "~", "null", "NULL", "0", "-0",
    "0o7", "07", "08", "0x1f", "0b11", "1_0", "1:2", "1:2:3.5", "1.5", "-.5", ".inf",
    ".NaN", "1e5", "1.0e+5", "2020-01-02", "2020-1-2", "2020-01-02 03:04:05", "<<", "=",
    "a b", "é", "x1", "0.1_5", "+1", "+.5", "12e", "1__2", ":x", "a:b",
]) | st.text(alphabet="0123456789.-+_:eEoxXbBa ", min_size=1, max_size=6).map(str.strip)
_SCALAR = _TOKENS.filter(lambda t: t and not t.startswith(("-", ":", "?")) or t in
                         ("-0", "-.5"))


@st.composite
def _documents(draw, depth=0) -> str:
    """A block mapping of plain scalars, flow sequences, nested mappings, anchors and
    aliases (some of them undefined: then both readers must fail)."""
    lines, pad = [], "  " * depth
    for i in range(draw(st.integers(1, 4))):
        key = draw(_SCALAR | st.just(f"k{i}"))
        kind = draw(st.sampled_from(["scalar", "flow", "nested", "anchor", "alias"]))
        if kind == "scalar":
            lines.append(f"{pad}{key}: {draw(_SCALAR)}")
        elif kind == "flow":
            items = draw(st.lists(_SCALAR, max_size=3))
            lines.append(f"{pad}{key}: [{', '.join(items)}]")
        elif kind == "nested" and depth < 2:
            lines.append(f"{pad}{key}:")
            lines.append(draw(_documents(depth + 1)))
        elif kind == "anchor":
            lines.append(f"{pad}{key}: &m{depth} {{p: {draw(_SCALAR)}, q: 1}}")
        else:
            lines.append(f"{pad}{key}: *m{draw(st.integers(0, 2))}")
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_documents(), min_size=1, max_size=3))
def test_same_values_as_the_safe_loader(docs):
    _built_as_the_loader_reads("\n---\n".join(docs) + "\n")
