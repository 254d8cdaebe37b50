"""%jq and %%jq in a real IPython shell."""

from __future__ import annotations

import json

import pytest
from IPython.core.error import UsageError


@pytest.fixture
def users(ip, tmp_path):
    ip.user_ns["data"] = {"users": [{"id": 1, "name": "ada"}, {"id": 2, "name": "bob"}]}
    path = tmp_path / "users.json"
    path.write_text(json.dumps(ip.user_ns["data"]))
    return path


def bundle(ip, obj):
    return ip.display_formatter.format(obj)[0]


def test_line_magic_on_a_variable(ip, run_cell, users):
    result = run_cell("%jq '.users[].name' data")
    assert result.values == ["ada", "bob"]
    shown = bundle(ip, result)
    assert shown["text/plain"] == '"ada"\n"bob"'
    assert shown["text/html"].count("class='jqmagic-result'") == 2  # a stream, not an array


def test_line_magic_on_a_file_with_raw_output(ip, run_cell, users):
    result = run_cell(f"%jq -r '.users[].name' {users}")
    assert bundle(ip, result)["text/plain"] == "ada\nbob"


def test_cell_magic_with_comments_and_defs(run_cell, users):
    result = run_cell("%%jq data -c\n# names of users\ndef names: .users[].name;\n[names]")
    assert result.text == '["ada","bob"]'


def test_dollar_is_not_expanded_by_ipython_and_reaches_jq(ip, run_cell, users):
    ip.user_ns["min_id"] = 1
    assert run_cell("%jq '[.users[] | select(.id > $min_id) | .name]' data").values == [["bob"]]
    assert run_cell("%jq '$x' -n --arg x hi").values == ["hi"]
    assert run_cell("%jq '$n + 1' -n --argjson n 41").values == [42]


def test_out_stores_every_value(ip, run_cell, users):
    run_cell("%jq '.users[]' data -o people --limit 1")
    assert ip.user_ns["people"] == ip.user_ns["data"]["users"]


def test_to_yaml_lines_and_df(ip, run_cell, users):
    shown = bundle(ip, run_cell("%jq '.users[0]' data --to yaml"))
    assert shown["text/plain"] == "id: 1\nname: ada\n"
    assert bundle(ip, run_cell("%jq '.users[].id' data --to lines"))["text/plain"] == "1\n2"
    frame = run_cell("%jq '.users' data --to df")
    assert list(frame.columns) == ["id", "name"] and len(frame) == 2


def test_inline_input_and_exec(run_cell):
    assert run_cell("%jq .a --input '{\"a\": 5}'").values == [5]
    assert run_cell("%jq .b -x 'echo {\\\"b\\\": 6}'").values == [6]


def test_errors_are_one_line_usage_errors_with_a_code(run_cell, users):
    with pytest.raises(UsageError) as info:
        run_cell("%jq '.users[' data")
    assert info.value.code == "INVALID_QUERY"
    assert str(info.value).startswith("INVALID_QUERY: Invalid jq program")
    assert "Hint:" in str(info.value)
    with pytest.raises(UsageError) as info:
        run_cell("%jq . missing-file.json")
    assert info.value.code == "NOT_FOUND"


def test_bounds_in_the_notebook(ip, run_cell):
    ip.user_ns["many"] = list(range(500))
    result = run_cell("%jq '.[]' many")
    text = bundle(ip, result)["text/plain"]
    assert text.splitlines()[-1].startswith("Truncated. Showing 100 of 500 results.")
    assert bundle(ip, result)["text/html"].count("class='jqmagic-result'") == 100


def test_settings_are_traits(ip, run_cell):
    from jqmagic.core.settings import settings

    ip.run_line_magic("config", "JqMagic.max_results = 7")
    try:
        assert settings.max_results == 7
        assert len(run_cell("%jq '.[]' --input '[1,2,3,4,5,6,7,8,9]'").values) == 7
    finally:
        ip.run_line_magic("config", "JqMagic.max_results = 100")


def test_help(ip, capsys):
    ip.run_line_magic("jq", "-h")
    assert "Run a jq program" in capsys.readouterr().out


def test_payload_of_a_truncated_result_is_queryable(ip, run_cell):
    ip.user_ns["many"] = list(range(500))
    result = run_cell("%jq '.[]' many")
    assert result.payload_id
    again = run_cell(f"%jq -s 'length' --payload {result.payload_id}")
    assert again.values == [500]
    with pytest.raises(UsageError) as info:
        run_cell("%jq . --payload 0123")
    assert info.value.code == "INVALID_ARGUMENT"


def test_clear_cache_option_and_settings_from_the_core(ip, tmp_path, capsys):
    from jqmagic.core.settings import Settings, settings

    path = tmp_path / "a.json"
    path.write_text('{"a": [1, 2]}')
    assert ip.run_line_magic("jq", f"'.a | length' {path}").values == [2]
    ip.run_line_magic("jq", "--clear-cache")
    assert "Cleared" in capsys.readouterr().out
    assert ip.run_line_magic("jq", f"--clear-cache '.a[1]' {path}").values == [2]
    magic = next(m for m in ip.configurables if type(m).__name__ == "JqMagic")
    assert magic.doc_cache_bytes == Settings().doc_cache_bytes
    ip.run_line_magic("config", "JqMagic.exec_max_bytes = 1000")
    try:
        assert settings.exec_max_bytes == 1000
    finally:
        ip.run_line_magic("config", f"JqMagic.exec_max_bytes = {Settings().exec_max_bytes}")


def test_results_before_an_error_are_shown_then_the_error(run_cell):
    from IPython.utils.capture import capture_output

    with capture_output() as shown, pytest.raises(UsageError) as info:
        run_cell("%jq '.[] | . + 1' --input '[1, \"a\", 3]'")
    assert info.value.code == "QUERY_ERROR"
    assert [o.data["text/plain"] for o in shown.outputs] == ["2"]  # jq printed 2, then failed


def test_options_anywhere_on_the_line_as_on_the_command_line(ip, run_cell):
    ip.user_ns["team"] = [{"id": "u-1", "role": "dev"}, {"id": "u-2", "role": "dev"}]
    run_cell("%jsonpatch team set --match '' --where '{\"id\": \"u-2\"}' /role '\"admin\"'")
    assert ip.user_ns["team"][1]["role"] == "admin"
    assert run_cell("%jq --compact-output '.[1]' team --raw-output").text == \
        '{"id":"u-2","role":"admin"}'
