"""suggest(): programs from examples, each verified in libjq; honest when nothing fits."""

from __future__ import annotations

import time

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.suggest import suggest
from jqmagic.core.suggest.rank import ranked
from jqmagic.core.suggest.search import Search, _pipe
from jqmagic.core.suggest.verify import answer, outputs


def best(examples, seconds=5.0) -> str | None:
    found = answer({"examples": examples, "seconds": seconds, "limit": 3})["programs"]
    return found[0]["program"] if found else None


@pytest.mark.parametrize(("given", "wanted", "program"), [
    ({"foo": 42, "bar": "x"}, [42], ".foo"),
    ([{"name": "JSON"}, {"name": "XML"}], ["JSON", "XML"], ".[].name"),
    ([1, 2, 3], [[2, 3, 4]], "map(. + 1)"),
    (["a", "b", "c"], ["a, b, c"], 'join(", ")'),
    ({"a": 1, "b": 2}, [3], "add"),
    ([{"x": 1}, {"x": 2}], [[{"a": 1}, {"a": 2}]], "map({a: .x})"),
    ([3, 1, 2], [[1, 2, 3]], "sort"),
    ({"name": "ada", "age": 36}, ["ada is 36"], '"\\(.name) is \\(.age)"'),
    ("  abc  ", ["abc", "abc  ", "  abc"], "trim, ltrim, rtrim"),
    ({"user": "ada", "titles": ["a", "b"]}, [{"ada": ["a", "b"]}], "{(.user): .titles}"),
])
def test_finds_a_program_for_each_kind_of_goal(given, wanted, program):
    found = best([[given, wanted]])
    assert found == program
    assert outputs(found, given) == wanted  # libjq's own answer


def test_several_examples_rule_out_what_one_allows():
    one = best([[{"a": 1, "b": 2}, [2]]])
    both = best([[{"a": 1, "b": 2}, [2]], [{"a": 5, "b": 9}, [9]]])
    assert both == ".b" and one is not None


def test_a_filter_is_found_from_the_elements_kept():
    found = best([[[{"t": "A", "n": 1}, {"t": "B", "n": 0}], [["A"]]],
                  [[{"t": "C", "n": 0}, {"t": "D", "n": 3}], [["D"]]],
                  [[{"t": "E", "n": 2}, {"t": "F", "n": 5}], [["E", "F"]]]], seconds=8)
    assert found == "map(select(.n > 0) | .t)"


def test_nothing_found_is_said_with_what_was_tried():
    found = suggest({"a": 1}, "zebra-42", timeout=1)
    assert found.programs == [] or not found.programs[0]["reads_input"]
    text = found.message
    assert ("Nothing found within 1 s" in text or "Only constants fit" in text)
    assert "programs" in text and found.data["tried"]["programs"] > 100


def test_search_keeps_its_deadline():
    started = time.monotonic()
    Search([[list(range(50)), ["no such thing"]]], time.monotonic() + 1).run()
    assert time.monotonic() - started < 2.5


def test_ranking_and_fused_steps():
    assert _pipe(".user", ".name") == ".user.name"
    assert _pipe(".a", ".[0]") == ".a[0]" and _pipe("keys", ".[0]") == "keys | .[0]"
    assert _pipe(".stock", ". > 0") == ".stock > 0" and _pipe("keys", ". + 1") == "keys | . + 1"
    from jqmagic.core.suggest.programs import Entry
    found = ranked([Entry(2, "[..] | min", ()), Entry(2, ".a.b", ()), Entry(3, ".a.b | abs", ()),
                    Entry(1, '"x"', (), const=True)])
    assert [e.text for e in found] == [".a.b", "[..] | min", '"x"']


def test_bad_arguments_are_coded_errors():
    with pytest.raises(JqMagicError) as none:
        suggest({"a": 1})
    assert none.value.code == "INVALID_ARGUMENT"
    with pytest.raises(JqMagicError) as bad:
        suggest(examples=[{"input": 1}])
    assert bad.value.code == "INVALID_ARGUMENT"
    with pytest.raises(JqMagicError) as slow:
        suggest(1, 2, timeout=0)
    assert slow.value.code == "INVALID_ARGUMENT"


@pytest.mark.parametrize(("examples", "program"), [
    # a default where a field is missing, not the last of the values by position
    ([[{"id": "u1", "alias": "neo"}, ["neo"]], [{"id": "u2"}, ["u2"]]], ".alias // .id"),
    # every value of an object changed alike
    ([[{"a": 3, "b": 5}, [{"a": 6, "b": 10}]], [{"c": 7, "d": 0, "e": 4}, [{"c": 14, "d": 0,
                                                                            "e": 8}]]],
     "map_values(. * 2)"),
    # a count under a condition, not length | . / 2 that happens to fit
    ([[[{"id": 1, "s": "x"}, {"id": 2, "s": "y"}, {"id": 3, "s": "x"}, {"id": 4, "s": "z"}],
       [2]], [[{"id": 7, "s": "y"}, {"id": 8, "s": "x"}], [1]]],
     'map(select(.s == "x")) | length'),
    # sorted by one field, another one kept
    ([[[{"n": "Lyon", "pop": 5}, {"n": "Paris", "pop": 21}, {"n": "Nice", "pop": 3}],
       [["Nice", "Lyon", "Paris"]]], [[{"n": "Wien", "pop": 19}, {"n": "Graz", "pop": 2}],
                                      [["Graz", "Wien"]]]],
     "sort_by(.pop) | map(.n)"),
    # two fields of each record compared
    ([[[{"sku": "a", "qty": 6, "min": 5}, {"sku": "b", "qty": 1, "min": 5},
        {"sku": "c", "qty": 2, "min": 3}], [["b", "c"]]],
      [[{"sku": "d", "qty": 9, "min": 3}, {"sku": "e", "qty": 0, "min": 4}], [["e"]]]],
     "map(select(.qty < .min) | .sku)"),
])
def test_the_program_a_teacher_writes_comes_first(examples, program):
    assert best(examples) == program


def test_the_list_says_how_many_in_plural_words_and_labels_every_program():
    from jqmagic.core.suggest import Suggestions

    found = Suggestions({
        "programs": [{"program": ".user", "cost": 1, "reads_input": True},
                     {"program": '"ada"', "cost": 1, "reads_input": False},
                     {"program": '.id | "ada"', "cost": 2, "reads_input": True,
                      "embeds_output": True}],
        "tried": {"programs": 1409, "kept": 1, "rounds": 3, "nested": 1}, "seconds": 0.1,
        "examples": 1, "timeout": 5.0})
    head, *rows = found.text.splitlines()
    assert head.startswith("3 programs verified in libjq on 1 example; searched 1,409 "
                           "programs (1 distinct behaviour, 3 cost levels, 1 nested search)")
    assert "(s)" not in found.text
    assert [row.split("   ")[-1] for row in rows] == [
        "(reads the input)", "(a constant: the same for any input)",
        "(writes the answer as a constant)"]
    assert "(a constant: the same for any input)" in found._repr_mimebundle_()["text/html"]


def test_a_program_right_on_the_examples_by_coincidence_is_left_out_and_counted():
    found = suggest(examples=[({"a": 1, "b": 2}, 3), ({"a": 5, "b": 1}, 6)], limit=6)
    shown = [p["program"] for p in found.programs]
    assert shown[:3] == ["add", ".a + .b", ".b + .a"], shown
    # (length + 1) / (.b / 2) is 3 and 6 here, 1.2 on {"a": 4, "b": 5}: not add
    assert not any(p.startswith("(length | . + 1) /") for p in shown), shown
    assert found.data["tried"]["set_aside"] >= 1
    assert "fitting the examples left out" in found.message
