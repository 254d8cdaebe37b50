"""YAML files edited in place: every patch operation and ``jq=`` write only the values they
change, in the document's own style; comments, blank lines, anchors and ``---`` stay; what
cannot be kept is refused and leaves the file byte-identical. JSON Lines: one line each."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from jqmagic import JqMagicError, patch, query
from jqmagic.core.patch.jqdiff import jq_runner
from jqmagic.core.patch.linesdoc import LinesDoc
from jqmagic.core.patch.yamltext import YamlDoc
from jqmagic.core.sources import parse_yaml
from jqmagic.core.words import json_equal

MANIFEST = """\
# the web deployment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web        # keep this comment
  labels: {app: web, tier: 'front'}

spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: app
          image: "nginx:1.25"   # pinned
          args:
            - --port=80
          script: |
            echo one
            echo two

        - name: sidecar
          image: envoy
---
# second document
kind: Service
metadata:
  name: web
"""


def write(tmp_path, text: str, name: str = "deploy.yaml"):
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def fails(code: str, path, *args, **kwargs) -> JqMagicError:
    before = path.read_bytes()
    with pytest.raises(JqMagicError) as caught:
        patch(path, *args, **kwargs)
    assert caught.value.code == code, caught.value
    assert path.read_bytes() == before
    return caught.value


def test_a_jq_edit_writes_only_what_changed(tmp_path):
    path = write(tmp_path, MANIFEST)
    program = ('if .kind == "Deployment" then .spec.replicas = 3 | '
               '.spec.template.spec.containers[0].image = "nginx:1.26" | '
               '.metadata.labels.tier = "back" | '
               '.spec.template.spec.containers[0].script = "echo three\\n" '
               'else .metadata.namespace = "prod" end')
    result = patch(path, jq=program)
    assert result.changed and result.matched == 2
    assert path.read_text() == (
        MANIFEST.replace("replicas: 2", "replicas: 3").replace("nginx:1.25", "nginx:1.26")
        .replace("'front'", "'back'").replace("echo one\n            echo two",
                                                "echo three")
        .replace("metadata:\n  name: web\n", "metadata:\n  name: web\n  namespace: prod\n"))
    expected = [query(program, value=doc, passthrough=True).values[0]
                for doc in parse_yaml(MANIFEST)]
    assert json_equal(parse_yaml(path.read_text()), expected)


def test_new_keys_and_items_follow_the_documents_indentation(tmp_path):
    path = write(tmp_path, MANIFEST)
    patch(path, jq='if .kind == "Deployment" then .spec.template.spec.containers[1].ports '
                   '= [{"containerPort": 80}] | .spec.template.spec.containers[0].args += '
                   '["-v"] else . end')
    text = path.read_text()
    assert ("          image: envoy\n          ports:\n            - containerPort: 80\n"
            in text)
    assert "            - --port=80\n            - -v\n          script: |" in text


def test_remove_takes_the_lines_and_the_last_key_leaves_braces(tmp_path):
    path = write(tmp_path, MANIFEST)
    patch(path, "remove", "/0/spec/template/spec/containers/0")
    text = path.read_text()
    assert "name: app" not in text and "pinned" not in text
    assert "      containers:\n\n        - name: sidecar\n" in text  # the blank line stays
    patch(path, "remove", "/1/metadata/name")
    assert path.read_text().endswith("kind: Service\nmetadata: {}\n")
    patch(path, "remove", "/0/metadata/labels/app")
    assert "  labels: {tier: 'front'}\n" in path.read_text()


def test_strings_keep_their_quotes_and_get_them_when_needed(tmp_path):
    path = write(tmp_path, "a: plain\nb: 'single'\nc: \"double\"\nd: x\n")
    patch(path, jq='.a = "still plain" | .b = "it\'s" | .c = "two" | .d = "true"')
    assert path.read_text() == "a: still plain\nb: 'it''s'\nc: \"two\"\nd: \"true\"\n"
    patch(path, jq='.a = "k: v" | .d = "#x" | .e = "line\\nbreak\\n" | .f = null')
    assert path.read_text() == ('a: "k: v"\nb: \'it\'\'s\'\nc: "two"\nd: "#x"\ne: |\n'
                                '  line\n  break\nf: null\n')


def test_flow_collections_stay_flow(tmp_path):
    path = write(tmp_path, "a: {x: 1, y: [1, 2]}  # note\nb: []\n")
    patch(path, jq='.a.z = "w" | .a.y += [3] | .b += [{"k": 1}] | del(.a.x)')
    assert path.read_text() == "a: {y: [1, 2, 3], z: w}  # note\nb: [{k: 1}]\n"


def test_empty_values_scalars_to_blocks_and_back(tmp_path):
    path = write(tmp_path, "a:\nb: 1 # one\nc:\n  - x\n  - y\nd: end\n")
    patch(path, jq='.a = 5 | .b = {"n": [1, {"m": 2}]} | .c = "flat"')
    assert path.read_text() == ('a: 5\nb: # one\n  "n":\n    - 1\n    - m: 2\nc: flat\n'
                                "d: end\n")  # the comment stays on the key's line; n, a
    # YAML 1.1 boolean to go-yaml v2 (Kubernetes), quoted
    assert parse_yaml(path.read_text()) == [{"a": 5, "b": {"n": [1, {"m": 2}]},
                                            "c": "flat", "d": "end"}]


def test_a_comment_after_a_value_stays_a_comment(tmp_path):
    path = write(tmp_path, "a: 1  # why\nb: [x]  # note\n")
    patch(path, jq='.a = "two\\nlines\\n" | .b = ["x", {"y": 1}]')
    assert path.read_text() == 'a: |  # why\n  two\n  lines\nb: [x, {"y": 1}]  # note\n'
    assert parse_yaml(path.read_text()) == [{"a": "two\nlines\n", "b": ["x", {"y": 1}]}]


def test_crlf_and_bom_are_kept(tmp_path):
    path = tmp_path / "w.yml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\r\nb:\r\n  c: 2\r\n")
    patch(path, jq=".b.d = 3 | .a = 2")
    assert path.read_bytes() == b"\xef\xbb\xbfa: 2\r\nb:\r\n  c: 2\r\n  d: 3\r\n"


def test_every_patch_operation_works_on_yaml(tmp_path):
    path = write(tmp_path, "users:  # people\n- id: 1\n  status: new\n- id: 2\n  status: new\n")
    patch(path, "set", "/status", "active", match="/users", where={"id": 2})
    patch(path, "insert", "/users/0", {"id": 0})
    patch(path, "merge", "/users/1", {"tags": ["a"]})
    patch(path, rfc6902=[{"op": "copy", "from": "/users/1/tags", "path": "/all"},
                         {"op": "test", "path": "/users/2/status", "value": "active"}])
    patch(path, merge_patch={"all": None, "count": 3})
    assert path.read_text() == ("users:  # people\n- id: 0\n- id: 1\n  status: new\n"
                                "  tags:\n  - a\n- id: 2\n  status: active\ncount: 3\n")
    error = fails("PATCH_CONFLICT", path, rfc6902=[
        {"op": "remove", "path": "/count"}, {"op": "test", "path": "/users/0/id", "value": 9}])
    assert "Nothing was changed" in error.hint


def test_a_stream_is_an_array_of_its_documents(tmp_path):
    path = write(tmp_path, MANIFEST)
    assert patch(path, "set", "/1/metadata/name", "api").target_path == "/1/metadata/name"
    assert "metadata:\n  name: api\n" in path.read_text()
    assert "2 documents, /0 to /1" in fails("INVALID_ARGUMENT", path, "set", "/2/a", 1).message
    fails("INVALID_ARGUMENT", path, "remove", "/1")
    fails("INVALID_ARGUMENT", path, "set", "", {})
    error = fails("QUERY_ERROR", path, jq='if .kind == "Service" then empty else . end')
    assert "document 1" in error.message


def test_aliases_anchors_merge_keys_and_unknown_tags_are_refused(tmp_path):
    text = "base: &b {x: 1}\nuse: *b\nmerged:\n  <<: *b\n  y: 2\nother: 1\n"
    path = write(tmp_path, text)
    patch(path, jq=".other = 2")  # elsewhere, edits are fine
    assert path.read_text() == text.replace("other: 1", "other: 2")
    assert "alias" in fails("PATCH_CONFLICT", path, jq=".use.x = 5").message
    patch(path, jq='.use = "own"')  # an alias itself is its own text
    assert path.read_text() == text.replace("other: 1", "other: 2").replace("*b\nmerged",
                                                                             "own\nmerged")
    fails("PATCH_CONFLICT", path, jq=".base.x = 5")
    fails("PATCH_CONFLICT", path, jq="del(.base)")
    assert "<<" in fails("PATCH_CONFLICT", path, "set", "/merged/y", 3).message
    tagged = write(tmp_path, "a: !Ref thing\nb: 1\n", "cfn.yaml")
    assert "safe loader" in fails("INVALID_YAML", tagged, "set", "/b", 2).hint


def test_broken_yaml_and_a_failed_program_change_nothing(tmp_path):
    path = write(tmp_path, "a: [1, 2\n")
    fails("INVALID_YAML", path, "set", "/a", 1)
    good = write(tmp_path, "a: 1\n", "good.yaml")
    fails("QUERY_ERROR", good, jq=".a | error")
    fails("QUERY_ERROR", good, jq=".a, .a")


def test_dry_run_diffs_and_writes_nothing(tmp_path):
    path = write(tmp_path, MANIFEST)
    result = patch(path, jq='.metadata.name |= . + "-x"', dry_run=True)
    assert path.read_text() == MANIFEST
    assert "-  name: web        # keep this comment\n+  name: web-x        # keep this comment" \
        in result.diff
    assert [line for line in result.diff.splitlines() if line.startswith("+")][1:] == [
        "+  name: web-x        # keep this comment", "+  name: web-x"]


def test_json_lines_lines_not_edited_stay_byte_for_byte(tmp_path):
    path = tmp_path / "log.jsonl"
    data = b'{"n": 1, "tags": []}\n\n{"n":2,"tags":["a"]}\r\n{ "n" : 3 }\n'
    path.write_bytes(data)
    result = patch(path, jq="if .n == 2 then .tags += [\"b\"] else . end")
    assert result.matched == 3 and len(result.changes) == 1
    assert path.read_bytes() == data.replace(b'["a"]', b'["a","b"]')
    patch(path, "set", "/2/n", 30)
    assert path.read_bytes().endswith(b'{ "n" : 30 }\n')
    fails("INVALID_ARGUMENT", path, "remove", "/0")
    fails("QUERY_ERROR", path, jq="if .n == 30 then empty else . end")


def test_a_stream_is_edited_by_one_query_unless_the_program_has_directives():
    calls = []

    def counting(program, **options):
        calls.append(program)
        return query(program, **options)

    lines = LinesDoc(b'{"n": 1}\n{"n": 2}\n{"n": 3}\n')
    changes, matched = jq_runner(".n += 1", counting)(lines)
    assert len(calls) == 1 and matched == 3 and [c.new for c in changes] == [2, 3, 4]
    stream = YamlDoc(b"n: 1  # one\n---\nn: 2\n")
    jq_runner('module {"m": 1};\n.n *= 10', counting)(stream)
    assert len(calls) == 3 and stream.text == "n: 10  # one\n---\nn: 20\n"


@pytest.mark.parametrize(("text", "program", "expected"), [
    ("%YAML 1.1\n---\na: 1\n...\n%YAML 1.1\n---\nb: 2\n...\n", ".x = 1",
     "%YAML 1.1\n---\na: 1\nx: 1\n...\n%YAML 1.1\n---\nb: 2\nx: 1\n...\n"),
    ("--- |\n  text\n---\n- 1\n", 'if type == "string" then "new\\n" else . + [2] end',
     "--- |\n  new\n---\n- 1\n- 2\n"),
    ("---\n---\na: 1\n", 'if . == null then {"z": 1} else .a = 2 end',
     "---\nz: 1\n---\na: 2\n"),
    ("? explicit key\n: 1\n'quoted key': 2\n", '.["quoted key"] = 3 | .["explicit key"] = 0',
     "? explicit key\n: 0\n'quoted key': 3\n"),
    ("a: !!str 5\nb: !!int '7'\n", '.a = "six" | .b = 8', "a: six\nb: 8\n"),
    ("list: [a,\n  b,\n  c]\n", "del(.list[2])", "list: [a,\n  b]\n"),
    ("a: 1", ".b = 2", "a: 1\nb: 2"),
    ("key: >\n  folded text\n  here\nnext: 1\n", '.key = "other text\\n"',
     "key: |\n  other text\nnext: 1\n"),
    ("- a: 1\n  b: 2\n- c: 3\n", "del(.[0].a) | del(.[1].c)", "- b: 2\n- {}\n"),
    ("- \n- 2\n", '.[0] = {"k": "v"}', "- k: v \n- 2\n"),
    ("a: ~\nb:\n", '.a = ["x"] | .b = {"k": [1]}', "a:\n  - x\nb:\n  k:\n    - 1\n"),
    ("b:\n# why\n- x  # note\nc: 1\n", '.b = "flat"', "b:\n# why\n  flat  # note\nc: 1\n"),
])
def test_markers_empty_values_tags_and_other_corners(tmp_path, text, program, expected):
    path = write(tmp_path, text)
    patch(path, jq=program)
    assert path.read_text() == expected


GUIDE_MANIFEST = """\
# web tier: reviewed by ops, keep the comments
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: front}   # selectors depend on these

spec:
  replicas: 2            # autoscaler floor
  template:
    spec:
      containers:
        - name: app
          image: "nginx:1.25"   # pinned, see ticket OPS-12
          args: [--port=8080]
          env:
            - name: LOG_LEVEL
              value: info
---
# the service in front of it
apiVersion: v1
kind: Service
metadata:
  name: web
"""


def test_the_guide_shows_a_real_run(tmp_path):
    page = (Path(__file__).resolve().parents[3] / "docs" / "command-line.md").read_text()
    block = page.split("--- a/deploy.yaml\n")[1].split("```")[0]
    shown = [line for line in block.splitlines() if line[:1] in ("+", "-")]
    program = re.search(r"after\s+`jqmagic query -i '(.*?)'\s+deploy.yaml`", page,
                        re.S).group(1).replace("\n", " ")
    path = write(tmp_path, GUIDE_MANIFEST)
    patch(path, jq=program)
    made = [line for line in difflib.unified_diff(GUIDE_MANIFEST.splitlines(),
                                                  path.read_text().splitlines(), lineterm="")
            if line[:1] in ("+", "-") and line[:3] not in ("+++", "---")]
    assert made == shown[1:]  # after the +++ header
