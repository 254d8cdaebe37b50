"""Lossless JSON / JSONC text: edits touch only their own characters, in the document's style."""

from __future__ import annotations

import copy
import difflib
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.jsonscan import detect_style
from jqmagic.core.patch.stores import TreeStore
from jqmagic.core.patch.textdoc import TextDoc

PRETTY = """{
  "name": "café \\u00e9\\n",
  "price": 1.50,
  "big": 12345678901234567890,
  "tags": ["a", "b"],
  "nested": {
    "deep": [1, 2.0e3, {"x": null}]
  },
  "last": true
}
"""

TSCONFIG = """// tsconfig for the app
{
  /* compiler options */
  "compilerOptions": {
    "target": "es2019", // keep in sync with node
    "strict": true,
    "paths": {},
  },
  "include": [
    "src", // sources
    "tests",
  ],
}
"""


def edit(source: str | bytes, action) -> str:
    """Apply ``action(doc)`` to a TextDoc of ``source`` and return the new text."""
    doc = TextDoc(source.encode() if isinstance(source, str) else source)
    action(doc)
    return b"".join(doc.chunks()).decode("utf-8", "surrogateescape")


def changed_lines(old: str, new: str) -> tuple[list[str], list[str]]:
    """The removed and added lines between two texts."""
    diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0))
    removed = [d[1:] for d in diff if d.startswith("-") and not d.startswith("---")]
    added = [d[1:] for d in diff if d.startswith("+") and not d.startswith("+++")]
    return removed, added


# ------------------------------------------------------------------ format preservation


def test_setting_one_value_changes_only_its_line():
    new = edit(PRETTY, lambda d: d.replace(["nested", "deep", "2", "x"], "set"))
    assert changed_lines(PRETTY, new) == (
        ['    "deep": [1, 2.0e3, {"x": null}]'], ['    "deep": [1, 2.0e3, {"x": "set"}]']
    )
    # literals, escapes, non-ASCII, key order and the trailing newline are untouched
    for kept in ('"price": 1.50', "12345678901234567890", '"café \\u00e9\\n"', "2.0e3"):
        assert kept in new
    assert new.endswith("}\n")
    assert list(json.loads(new)) == list(json.loads(PRETTY))


@pytest.mark.parametrize("indent", ["  ", "    ", "\t"], ids=["2", "4", "tab"])
def test_new_members_follow_the_indent_unit(indent):
    source = json.dumps({"a": {"b": 1}, "c": []}, indent=indent) + "\n"
    new = edit(source, lambda d: (d.add(["a", "n"], {"k": [1]}), d.add(["c", "-"], "x")))
    expected = json.dumps({"a": {"b": 1, "n": {"k": [1]}}, "c": ["x"]}, indent=indent) + "\n"
    assert new == expected


def test_compact_documents_stay_compact():
    source = '{"a":1,"b":[1,2],"c":{}}'
    new = edit(source, lambda d: (d.add(["c", "k"], {"x": [1, 2]}), d.add(["b", "1"], 9)))
    assert new == '{"a":1,"b":[1,9,2],"c":{"k":{"x":[1,2]}}}'


def test_inline_containers_in_a_pretty_document_stay_inline():
    new = edit(PRETTY, lambda d: (d.add(["tags", "-"], "c"), d.replace(["tags"], ["x", "y"])))
    assert '  "tags": ["x", "y"],\n' in new


def test_crlf_newlines_are_kept_for_new_lines():
    source = '{\r\n  "a": 1\r\n}\r\n'
    new = edit(source, lambda d: d.add(["b"], {"c": 2}))
    assert new == '{\r\n  "a": 1,\r\n  "b": {\r\n    "c": 2\r\n  }\r\n}\r\n'


def test_no_trailing_newline_stays_absent():
    assert edit('{"a": 1}', lambda d: d.replace(["a"], 2)) == '{"a": 2}'


def test_ascii_only_documents_keep_escaping_new_text():
    source = '{"name": "caf\\u00e9"}'
    assert edit(source, lambda d: d.replace(["name"], "thé")) == '{"name": "th\\u00e9"}'
    assert edit('{"a": "é"}', lambda d: d.replace(["a"], "thé")) == '{"a": "thé"}'


def test_bom_and_bytes_that_are_not_utf8_survive():
    source = b'\xef\xbb\xbf{"raw": "\xff\xfe", "a": 1, "\xc3\xa9": 2}'
    doc = TextDoc(source)
    doc.replace(["\xe9"], 3)  # "é": offsets after non-ASCII text map to the right bytes
    doc.replace(["a"], 5)
    assert b"".join(doc.chunks()) == b'\xef\xbb\xbf{"raw": "\xff\xfe", "a": 5, "\xc3\xa9": 3}'


def test_a_single_edit_is_written_from_the_original_bytes():
    doc = TextDoc(b'{"a": 1, "b": "\xc3\xa9"}')
    doc.replace(["b"], "x")
    pieces = list(doc.chunks())
    assert len(pieces) == 3 and isinstance(pieces[0], memoryview)
    assert b"".join(pieces) == b'{"a": 1, "b": "x"}'


def test_setting_an_equal_value_changes_nothing():
    doc = TextDoc(b'{"a": [1, 2]}')
    doc.replace(["a"], [1, 2])
    assert not doc.changed and doc.diff("x.json") == ""


# ------------------------------------------------------------------ removal layouts


@pytest.mark.parametrize(("pointer", "expected"), [
    (["a"], '{\n  "b": 2,\n  "c": 3\n}\n'),
    (["b"], '{\n  "a": 1,\n  "c": 3\n}\n'),
    (["c"], '{\n  "a": 1,\n  "b": 2\n}\n'),
], ids=["first", "middle", "last"])
def test_removing_a_member_removes_its_line(pointer, expected):
    assert edit('{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}\n', lambda d: d.remove(pointer)) == expected


@pytest.mark.parametrize(("index", "expected"), [
    ("0", "[2, 3]"), ("1", "[1, 3]"), ("2", "[1, 2]"),
])
def test_removing_inline_elements(index, expected):
    assert edit("[1, 2, 3]", lambda d: d.remove([index])) == expected


def test_removing_the_only_member_empties_the_container():
    source = '{\n  "a": [\n    1\n  ]\n}\n'
    assert edit(source, lambda d: d.remove(["a", "0"])) == '{\n  "a": []\n}\n'
    assert edit('{"a": 1}', lambda d: d.remove(["a"])) == "{}"


def test_inserting_keeps_the_element_layout():
    source = '[\n  {"id": 1},\n  {"id": 2}\n]'
    new = edit(source, lambda d: d.add(["1"], {"id": 9}))
    assert new == '[\n  {"id": 1},\n  {"id": 9},\n  {"id": 2}\n]'
    assert edit("[]", lambda d: d.add(["0"], 1)) == "[1]"


# ------------------------------------------------------------------ JSONC


def test_jsonc_comments_and_trailing_commas_are_kept():
    def change(doc):
        doc.replace(["compilerOptions", "target"], "es2022")
        doc.add(["compilerOptions", "outDir"], "dist")
        doc.remove(["compilerOptions", "strict"])
        doc.add(["include", "-"], "types")

    new = edit(TSCONFIG, change)
    for comment in ("// tsconfig for the app", "/* compiler options */",
                    "// keep in sync with node", "// sources"):
        assert comment in new
    assert '"target": "es2022", // keep in sync with node' in new
    assert '    "outDir": "dist",\n  },' in new  # the trailing comma style is kept
    assert '    "tests",\n    "types",\n  ],' in new
    assert TextDoc(new.encode()).get([]) == {
        "compilerOptions": {"target": "es2022", "paths": {}, "outDir": "dist"},
        "include": ["src", "tests", "types"],
    }


def test_a_comment_on_the_last_line_stays_with_its_member():
    source = '{\n  "a": 1, // one\n  "b": 2 // two\n}\n'
    assert edit(source, lambda d: d.add(["c"], 3)) == (
        '{\n  "a": 1, // one\n  "b": 2, // two\n  "c": 3\n}\n'
    )
    assert edit(source, lambda d: d.remove(["b"])) == '{\n  "a": 1 // one\n}\n'


def test_jsonc_values_are_read():
    assert TextDoc(TSCONFIG.encode()).get(["include"]) == ["src", "tests"]


# ------------------------------------------------------------------ reading and errors


def test_duplicate_keys_read_like_json_loads():
    doc = TextDoc(b'{"a": 1, "a": 2}')
    assert doc.get(["a"]) == json.loads('{"a": 1, "a": 2}')["a"] == 2


@pytest.mark.parametrize(("source", "fragment"), [
    ('{"a": 1,, "b": 2}', "line 1, column 9: expected a key string"),
    ('{"a": NaN}', "expected a value, found 'N'"),
    ('{"a": 1}\n{"b": 2}', "line 2, column 1: extra data"),
    ("   ", "the document is empty"),
    ('{"a": "open}', "unterminated string"),
    ('{"a" 1}', "expected ':'"),
    ("[1 2]", "expected ',' or ']'"),
    ('{"a": 1 /* open', "expected ',' or '}'"),
])
def test_invalid_json_points_at_the_spot(source, fragment):
    with pytest.raises(JqMagicError) as caught:
        TextDoc(source.encode())
    assert caught.value.code == "INVALID_JSON"
    assert fragment in caught.value.message
    assert "^" in caught.value.detail


def test_style_detection():
    pretty = detect_style('{\n    "a": [1, 2],\n    "b": {\n        "c": 1\n    }\n}')
    assert (pretty.indent, pretty.key_sep, pretty.item_sep) == ("    ", ": ", ", ")
    compact = detect_style('{"a":1,"b":2}')
    assert (compact.indent, compact.key_sep, compact.item_sep) == (None, ":", ",")
    spaced = detect_style('{"a": 1, "b": 2}')
    assert (spaced.key_sep, spaced.item_sep) == (": ", ", ")
    assert detect_style('{\n\t"a": 1\n}').indent == "\t"


def test_a_comment_before_the_colon_does_not_change_the_style():
    new = edit('{\n  "a" /* c */ : 1\n}', lambda d: d.add(["b"], {"x": 1}))
    assert new == '{\n  "a" /* c */ : 1,\n  "b": {\n    "x": 1\n  }\n}'


def test_diff_counts_lines_from_the_top_of_a_long_file():
    source = json.dumps({f"k{i}": i for i in range(500)}, indent=2) + "\n"
    doc = TextDoc(source.encode())
    doc.replace(["k300"], "x")
    diff = doc.diff("big.json")
    assert "@@ -299,7 +299,7 @@" in diff
    assert '-  "k300": 300,\n+  "k300": "x",\n' in diff


# ------------------------------------------------------------------ property: text == value

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=12,
)
layouts = st.sampled_from([
    {"indent": None}, {"indent": None, "separators": (",", ":")}, {"indent": 2},
    {"indent": 4, "ensure_ascii": False}, {"indent": "\t"},
])


def _pointers(value, prefix=()):
    yield list(prefix)
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _pointers(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _pointers(child, prefix + (str(index),))


@settings(max_examples=150, deadline=None)
@given(doc=json_values, layout=layouts, new=json_values, data=st.data())
def test_text_edits_equal_value_edits(doc, layout, new, data):
    """Any add / replace / remove on the text gives what the same edit gives on values."""
    pointer = data.draw(st.sampled_from(list(_pointers(doc))))
    text_doc = TextDoc(json.dumps(doc, **layout).encode())
    tree = TreeStore(copy.deepcopy(doc))
    kind = text_doc.kind(pointer)
    action = data.draw(st.sampled_from(["replace", "remove", "add"]))
    if action == "remove" and pointer:
        text_doc.remove(pointer)
        tree.remove(pointer)
    elif action == "add" and kind in ("object", "array"):
        size = len(tree.get(pointer))
        last = data.draw(st.text(max_size=3)) if kind == "object" else str(
            data.draw(st.integers(0, size)))
        text_doc.add(pointer + [last], new)
        tree.add(pointer + [last], new)
    else:
        text_doc.replace(pointer, new)
        tree.replace(pointer, new)
    assert json.loads(b"".join(text_doc.chunks())) == tree.root


def _jsonc(value, counter, indent="", trailing=False) -> str:
    """Pretty JSONC with a numbered /*cN*/ comment after every bracket and comma."""
    def note():
        counter.append(len(counter))
        return f"/*c{counter[-1]}*/"

    if not isinstance(value, (dict, list)) or not value:
        return json.dumps(value)
    inner = indent + "  "
    items = [(json.dumps(k) + ": " if isinstance(value, dict) else "")
             + _jsonc(v, counter, inner, trailing)
             for k, v in (value.items() if isinstance(value, dict) else enumerate(value))]
    opening, closing = "{}" if isinstance(value, dict) else "[]"
    body = ("," + note() + "\n" + inner).join(items) + ("," if trailing else "")
    return f"{opening} {note()}\n{inner}{body} // end\n{indent}{closing}"


@settings(max_examples=150, deadline=None)
@given(doc=st.dictionaries(st.text(max_size=4), json_values, min_size=1, max_size=4),
       new=json_values, trailing=st.booleans(), data=st.data())
def test_jsonc_edits_keep_every_comment_outside_the_edit(doc, new, trailing, data):
    source = _jsonc(doc, [], trailing=trailing)
    text_doc, tree = TextDoc(source.encode()), TreeStore(copy.deepcopy(doc))
    pointer = data.draw(st.sampled_from(list(_pointers(doc))[1:]))
    span = text_doc.locate(pointer)
    comments = re.compile(r"/\*c\d+\*/")
    kept = set(comments.findall(source)) - set(comments.findall(source[span.start:span.end]))
    if text_doc.kind(pointer) == "object" and data.draw(st.booleans()):
        for store in (text_doc, tree):
            store.add(pointer + ["new key"], new)
    else:
        for store in (text_doc, tree):
            store.replace(pointer, new)
    result = b"".join(text_doc.chunks()).decode()
    assert TextDoc(result.encode()).get([]) == tree.root
    assert kept <= set(comments.findall(result))


def test_non_ascii_keys_written_raw_or_escaped():
    doc = TextDoc('{"caf\\u00e9": 1, "thé": {"ü": [2]}, "\\ud800": 3}'.encode())
    assert doc.get(["café"]) == 1 and doc.get(["thé", "ü", "0"]) == 2 and doc.get(["\ud800"]) == 3
    doc.replace(["thé", "ü"], "ñ")
    doc.add(["ß"], {"é": "€"})
    assert b"".join(doc.chunks()).decode() == (
        '{"caf\\u00e9": 1, "thé": {"ü": "ñ"}, "\\ud800": 3, "ß": {"é": "€"}}'
    )
    with pytest.raises(JqMagicError) as caught:
        doc.get(["thè"])
    assert 'Keys are: café, thé, "\ud800", ß.' in caught.value.hint


def test_error_columns_count_characters_not_bytes():
    with pytest.raises(JqMagicError) as caught:
        TextDoc('{"é": tru}'.encode())
    assert "line 1, column 7" in caught.value.message
    assert caught.value.detail == '    {"é": tru}\n          ^'


@settings(max_examples=150, deadline=None)
@given(doc=st.dictionaries(st.text(max_size=3), json_values, min_size=1, max_size=4),
       layout=layouts, name=st.sampled_from(["move", "copy"]), data=st.data())
def test_moves_and_copies_as_text_equal_moves_on_values(doc, layout, name, data):
    from jqmagic.core.patch.operations import _rfc6902
    from jqmagic.core.pointers import to_pointer

    pointers = list(_pointers(doc))[1:]
    source = data.draw(st.sampled_from(pointers))
    parents = [p for p in _pointers(doc) if isinstance(TreeStore(doc).get(p), dict)
               and (name == "copy" or p[: len(source)] != source)]
    target = data.draw(st.sampled_from(parents)) + ["moved"]
    ops = [{"op": name, "from": to_pointer(source), "path": to_pointer(target)}]
    text_doc, tree = TextDoc(json.dumps(doc, **layout).encode()), TreeStore(copy.deepcopy(doc))
    codes = []
    for store in (tree, text_doc):  # a move may shift the target away: then both refuse
        try:
            _rfc6902(store, ops)
            codes.append(None)
        except JqMagicError as exc:
            codes.append(exc.code)
    assert codes[0] == codes[1]
    if codes[0] is None:
        assert json.loads(b"".join(text_doc.chunks())) == tree.root
