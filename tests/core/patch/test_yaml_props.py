"""Property: random YAML documents written in random styles (block and flow, plain, quoted
and literal strings, comments, blank lines, indent units) edited by random jq assignments
(``=``, ``|=``, ``+=``, ``del``, ``to_entries | map | from_entries``) read back as exactly
the value libjq computes, and every line the edit did not touch is still there, byte for
byte and in order; a failed edit leaves the file byte-identical. Real manifests too."""

from __future__ import annotations

import collections
import json

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic import JqMagicError, patch, query
from jqmagic.core.sources import parse_yaml
from jqmagic.core.words import json_equal
from tests.shared import CORPUS_JSON

KEYS = st.sampled_from(["a", "b", "name", "x-y", "k8s", "port", "on", "1"])
STRINGS = st.sampled_from(["", "web", "two words", "yes", "1.5", "a: b", "#c", "it's",
                           "multi\nline\n", "tail\nno newline", "é ü", "-v", "null"])
SCALARS = st.none() | st.booleans() | st.integers(-99, 99) | STRINGS | st.sampled_from(
    [0.5, -2.25])
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    KEYS, inner, max_size=4), max_leaves=10)
DOCS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=5)


class Writer:
    """Writes a value as YAML, each choice of style drawn at random."""

    def __init__(self, draw):
        self.draw = draw
        self.unit = " " * draw(st.sampled_from([2, 4]))
        self.seq = draw(st.sampled_from(["", self.unit]))

    def maybe(self, weight: float = 0.3) -> bool:
        return self.draw(st.floats(0, 1)) < weight

    def scalar(self, value, flow: bool) -> str:
        if not isinstance(value, str):
            return "~" if value is None and self.maybe(0.2) else json.dumps(value)
        styles = ['"']
        if "\n" not in value:
            styles.append("'")
            if (not flow and value and value.strip() == value and ": " not in value
                    and " #" not in value and value[0] not in "-#'\"!&*?:|>%@`{[,"
                    and yaml.safe_load(value) == value):
                styles.append("plain")
        style = self.draw(st.sampled_from(styles))
        if style == "plain":
            return value
        if style == "'":
            return "'" + value.replace("'", "''") + "'"
        return json.dumps(value, ensure_ascii=self.maybe(0.2))

    def flow(self, value) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{json.dumps(k)}: {self.flow(v)}"
                                   for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self.flow(v) for v in value) + "]"
        return self.scalar(value, True)

    def after(self, value, indent: str) -> str:
        """A value after ``key:`` or ``- ``: inline, or a block on the next lines."""
        if isinstance(value, (dict, list)) and value and not self.maybe(0.25):
            inner = indent + (self.unit if isinstance(value, dict) else self.seq or "")
            return "\n" + self.block(value, inner)
        if (isinstance(value, str) and value.endswith("\n") and value.strip()
                and "\n\n" not in value and not value.startswith(" ") and self.maybe(0.6)):
            body = "\n".join(indent + self.unit + line for line in value[:-1].split("\n"))
            return " |\n" + body
        text = self.flow(value) if isinstance(value, (dict, list)) else self.scalar(value, False)
        return " " + text + ("  # note" if self.maybe(0.2) else "")

    def block(self, value, indent: str) -> str:
        lines = []
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            if self.maybe(0.15):
                lines.append("" if self.maybe() else indent + "# a comment")
            if isinstance(value, dict):
                lines.append(indent + json.dumps(key) if not key.isalnum() or key in (
                    "on", "1") else indent + key)
                lines[-1] += ":" + self.after(item, indent)
            else:
                lines.append(indent + "-" + self.after(item, indent + "  "))
        return "\n".join(lines)


@st.composite
def documents(draw):
    value = draw(DOCS)
    writer = Writer(draw)
    text = ("# top\n" if writer.maybe() else "") + writer.block(value, "") + "\n"
    assert parse_yaml(text) == [value], text  # the writer is right
    return value, text


def paths(value, at=()):
    yield list(at)
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*at, index))


def get(value, path):
    for step in path:
        value = value[step]
    return value


@st.composite
def edits(draw, value):
    path = draw(st.sampled_from(list(paths(value))))
    target = get(value, path)
    where = "." + "".join(f"[{json.dumps(step)}]" for step in path)
    options = [f"{where} = {json.dumps(draw(VALUES))}", f"{where} |= tostring"]
    if path:
        options.append(f"del({where})")
    if isinstance(target, (int, float)) and not isinstance(target, bool):
        options.append(f"{where} += {draw(st.integers(1, 9))}")
    if isinstance(target, str):
        options.append(f"{where} += {json.dumps(draw(STRINGS))}")
    if isinstance(target, list):
        options.append(f"{where} += {json.dumps(draw(st.lists(VALUES, max_size=2)))}")
    if isinstance(target, dict):
        options += [f"{where} += {json.dumps(draw(st.dictionaries(KEYS, SCALARS, max_size=2)))}",
                    f"{where} |= (to_entries | map(.value |= tostring) | from_entries)",
                    f'{where} |= (to_entries | map(select(.key != "a")) | from_entries)']
    return draw(st.sampled_from(options))


def touched_lines(root, changes, text: str) -> set[int]:
    """The lines an edit of these pointers may rewrite, found by PyYAML alone: a value
    replaced or removed and its key's line (and a flow parent's); a parent whose members
    all go and its key's line; the next member's line when the first one of a "- a: 1"
    item goes. An addition to a block collection rewrites no line."""
    lines: set[int] = set()
    removed = collections.Counter(c.path.rsplit("/", 1)[0] for c in changes if c.new is None)
    for change in changes:
        chain = [(None, root)]
        for step in [s.replace("~1", "/").replace("~0", "~")
                     for s in change.path.split("/")[1:]]:
            node = chain[-1][1]
            if isinstance(node, yaml.MappingNode):
                found = [(k, v) for k, v in node.value if k.value == step]
            elif isinstance(node, yaml.SequenceNode) and step.isdigit():
                found = [(None, v) for v in node.value[int(step) : int(step) + 1]]
            else:
                found = []
            if not found:
                break
            chain.append(found[-1])
        key, node = chain[-1]
        if len(chain) < len(change.path.split("/")):  # an addition: only flow text changes
            if getattr(node, "flow_style", False):
                lines.update(_span(node, key))
            continue
        lines.update(_span(node, key, text))
        if len(chain) > 1 and getattr(chain[-2][1], "flow_style", False):
            lines.update(_span(chain[-2][1], chain[-2][0]))
        if len(chain) > 1 and change.new is None:
            parent_key, parent = chain[-2]
            members = parent.value
            if len(members) <= removed[change.path.rsplit("/", 1)[0]]:  # all go: "{}"
                lines.update(_span(parent, parent_key, text))
            start = (key or node).start_mark
            line_head = text.split("\n")[start.line][: start.column]
            if line_head.strip() and len(members) > 1:  # "- a: 1": the next member joins
                lines.update(_span(*_member(parent, 1), text))
    return lines


def _member(parent, index):
    item = parent.value[index]
    return (item[1], item[0]) if isinstance(item, tuple) else (item, None)


def _span(node, key, text: str = "") -> set[int]:
    """A value's lines, from its key's line or its item's "-" (blank lines or comments
    between them too)."""
    first = key.start_mark.line if key is not None else node.start_mark.line
    lines = text.split("\n")
    if key is None and text and not lines[first][: node.start_mark.column].strip():
        first -= 1  # the item starts on a later line than its "-"
        while first > 0 and lines[first].strip()[:1] in ("", "#"):
            first -= 1
    return set(range(first, node.end_mark.line + 1))


def kept_in_order(old: list[str], new: list[str]) -> bool:
    """Whether ``old`` is a subsequence of ``new`` (greedy matching finds one if any)."""
    rest = iter(new)
    return all(any(line == candidate for candidate in rest) for line in old)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edits_read_back_as_libjq_computes(tmp_path_factory, data):
    value, text = data.draw(documents())
    program = data.draw(edits(value))
    expected = query(program, value=value, passthrough=True).values
    path = tmp_path_factory.mktemp("props") / "doc.yaml"
    path.write_bytes(text.encode())
    try:
        result = patch(path, jq=program)
    except JqMagicError:
        assert path.read_bytes() == text.encode()
        raise
    new = path.read_text()
    assert json_equal(parse_yaml(new), expected), (text, program, new)
    touched = touched_lines(yaml.compose(text, Loader=yaml.SafeLoader), result.changes, text)
    untouched = [line for number, line in enumerate(text.split("\n")) if number not in touched]
    assert kept_in_order(untouched, new.split("\n")), (text, program, new, sorted(touched))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_failed_edit_leaves_the_file_byte_identical(tmp_path_factory, data):
    value, text = data.draw(documents())
    path = tmp_path_factory.mktemp("fails") / "doc.yaml"
    path.write_bytes(text.encode())
    program = data.draw(st.sampled_from([
        '.a = 1 | error("no")', ".zz = 1 | .[]", "empty", '.b = 2 | if true then . , . end',
        '.a = 1 | .[0]']))
    with pytest.raises(JqMagicError):
        patch(path, jq=program)
    assert path.read_bytes() == text.encode()


CORPUS_EDITS = [
    ("k8s/ingress-nginx-cloud-deploy.yaml",
     '.metadata.labels["team"] = "web" | if .kind == "Deployment" then '
     '.spec.template.spec.containers[0].image = "registry.k8s.io/x:1" else . end'),
    ("k8s/ingress-nginx-cloud-deploy.yaml", 'del(.metadata.labels) | .metadata.namespace = "a"'),
    ("compose/docker-elk-docker-compose.yml",
     '.services[].restart = "always" | del(.services.logstash) | '
     '.services.kibana.ports += ["9000:9000"]'),
    ("compose/opentelemetry-demo-compose.yaml",
     '.services |= with_entries(.value.mem_limit = "1G") | del(.services[].depends_on)'),
]


@pytest.mark.parametrize(("name", "program"), CORPUS_EDITS)
def test_real_manifests_and_compose_files(tmp_path, name, program):
    source = CORPUS_JSON / name
    if not source.exists():
        pytest.skip(f"corpus file {source} not found (see ../shared/corpus/README.md)")
    text = source.read_text()
    path = tmp_path / source.name
    path.write_text(text)
    result = patch(path, jq=program)
    expected = [query(program, value=doc, passthrough=True).values[0]
                for doc in parse_yaml(text)]
    new = path.read_text()
    assert result.changed and json_equal(parse_yaml(new), expected)
    touched = touched_lines_stream(text, result.changes)
    untouched = [line for number, line in enumerate(text.split("\n")) if number not in touched]
    assert kept_in_order(untouched, new.split("\n"))


def touched_lines_stream(text: str, changes) -> set[int]:
    """touched_lines for each document of a stream (``/N/...`` pointers)."""
    roots = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    if len(roots) == 1:
        return touched_lines(roots[0], changes, text)
    lines: set[int] = set()
    for number, root in enumerate(roots):
        mine = [change._replace(path=change.path[len(f"/{number}") :]) for change in changes
                if change.path.startswith(f"/{number}/")]
        lines |= touched_lines(root, mine, text)
    return lines


def test_a_real_json_lines_file_keeps_every_line_it_does_not_edit(tmp_path):
    source = CORPUS_JSON / "jsonl" / "gsm8k-test.jsonl"
    if not source.exists():
        pytest.skip(f"corpus file {source} not found (see ../shared/corpus/README.md)")
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    program = "if (.question | length) > 400 then .long = true else . end"
    result = patch(path, jq=program)
    old, new = source.read_bytes().split(b"\n"), path.read_bytes().split(b"\n")
    edited = [n for n, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    assert len(edited) == len(result.changes) > 0
    for number in edited:
        expected = query(program, value=json.loads(old[number]), passthrough=True).values[0]
        assert json.loads(new[number]) == expected and new[number].startswith(old[number][:-1])
