"""--parallel: a per-input program over several files on several workers gives, byte for
byte and in order, what one worker gives: results, totals, bounds, payload and errors."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError, payload, query


@pytest.fixture
def logs(write_logs):
    return write_logs(300)


@pytest.mark.parametrize("program", ['select(.level == "error") | [.f, .i]', ".ms",
                                     '"\\(.f):\\(.i)"', "input_filename | ltrimstr(\"/\")"])
def test_the_same_answer_in_the_same_order(logs, program):
    serial = query(program, logs, compact=True, limit=100)  # a face's bound: the payload too
    spread = query(program, logs, compact=True, parallel=3, limit=100)
    assert (spread.text, spread.total, spread.message.split(" The full")[0]) == \
        (serial.text, serial.total, serial.message.split(" The full")[0])
    assert payload(spread.payload_id) == payload(serial.payload_id)


def test_every_result_without_bounds(logs):
    whole = query("[.f, .i]", logs, compact=True, passthrough=True, parallel=2)
    assert whole.total == 1500 and whole.values[-1] == [4, 299]
    assert whole.values == query("[.f, .i]", logs, compact=True, passthrough=True).values


def test_an_error_in_the_middle_keeps_what_came_before(logs, tmp_path):
    (tmp_path / "log2.jsonl").write_text('{"f": 2, "i": 0}\n{"f": 2, "i": \n')
    with pytest.raises(JqMagicError) as serial:
        query(".i", logs, passthrough=True)
    with pytest.raises(JqMagicError) as spread:
        query(".i", logs, passthrough=True, parallel=3)
    assert spread.value.code == serial.value.code == "INVALID_JSON"
    assert spread.value.result.values == serial.value.result.values  # 601: up to the error
    assert len(serial.value.result.values) == 601


@pytest.mark.parametrize("options", [{"slurp": True}, {"null_input": True}])
def test_programs_over_all_inputs_are_refused(logs, options):
    with pytest.raises(JqMagicError) as info:
        query("length", logs, parallel=2, **options)
    assert info.value.code == "INVALID_ARGUMENT" and "--parallel" in info.value.message


def test_inputs_is_refused(logs):
    with pytest.raises(JqMagicError) as info:
        query("[., input]", logs, parallel=2)
    assert info.value.code == "INVALID_ARGUMENT"


def test_a_jq_error_in_the_middle_ends_only_its_input_as_serially(logs, tmp_path):
    for name in ("log1.jsonl", "log3.jsonl"):  # two inputs fail: jq goes on past each
        with open(tmp_path / name, "a") as out:
            out.write('{"f": 9, "i": "x"}\n')

    def answer(**options):
        with pytest.raises(JqMagicError) as caught:
            query(".i + 1", logs, passthrough=True, **options)
        return caught.value.code, caught.value.message, caught.value.hint, \
            caught.value.result.values

    serial = answer()
    assert serial[0] == "QUERY_ERROR" and "(and 1 more input failed)" in serial[1]
    assert len(serial[3]) == 1500
    assert answer(parallel=2) == answer(parallel=5) == serial


def test_a_halt_in_the_middle_ends_the_run_as_serially(logs):
    program = 'if .f == 2 and .i == 5 then halt else .i end'
    serial = query(program, logs, passthrough=True)
    spread = query(program, logs, passthrough=True, parallel=3)
    assert (spread.values, spread.halted) == (serial.values, serial.halted)
    assert serial.halted and len(serial.values) == 605
