"""%jsonpatch and %%jsonpatch in a real IPython shell, on files and on variables."""

from __future__ import annotations

import json

import pytest
from IPython.core.error import UsageError

CONFIG = '{\n  "server": {"port": 8080, "host": "localhost"},\n  "users": [{"id": 7}]\n}\n'


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(CONFIG)
    return path


def shown(result) -> str:
    return result._repr_mimebundle_()["text/plain"]


def test_set_on_a_file_shows_the_change(config, run_cell):
    result = run_cell(f"%jsonpatch {config} set /server/port 9090")
    assert shown(result) == "set /server/port: 8080 -> 9090"
    assert config.read_text() == CONFIG.replace("8080", "9090")


def test_a_variable_is_edited_in_place(ip, run_cell):
    ip.user_ns["doc"] = {"users": [{"id": 7, "tags": []}]}
    result = run_cell("""%jsonpatch doc set '{"name": "Ann", "tags": ["$x"]}' """
                      """--match /users --where '{"id": 7}'""")
    assert ip.user_ns["doc"] == {"users": [{"id": 7, "tags": ["$x"], "name": "Ann"}]}
    assert shown(result).splitlines() == [
        'set /users/0/name: null -> "Ann"', 'set /users/0/tags: [] -> ["$x"]', "1 matched."]


def test_cell_rfc6902_and_merge(config, run_cell):
    run_cell(f'%%jsonpatch {config}\n[{{"op": "add", "path": "/users/-", "value": {{"id": 8}}}},'
             f'\n {{"op": "remove", "path": "/server/host"}}]')
    assert json.loads(config.read_text()) == {"server": {"port": 8080},
                                              "users": [{"id": 7}, {"id": 8}]}
    run_cell(f'%%jsonpatch {config} --merge\n{{"server": {{"tls": true}}}}')
    assert json.loads(config.read_text())["server"] == {"port": 8080, "tls": True}


def test_dry_run_and_out(config, ip, run_cell):
    result = run_cell(f"%jsonpatch {config} remove /users/0 --dry-run")
    assert "Dry run: nothing was written." in shown(result)
    assert '-  "users": [{"id": 7}]' in shown(result)
    assert config.read_text() == CONFIG
    ip.run_line_magic("jsonpatch", f"{config} set /server/port 1 -o res")
    assert ip.user_ns["res"]["previousValue"] == 8080


def test_errors_are_one_line_and_change_nothing(config, ip):
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("jsonpatch", f"{config} set /users/5 1")
    assert exc.value.code == "NOT_FOUND"
    assert str(exc.value) == ("NOT_FOUND: Path '/users/5' not found. Array length is 1.\n"
                              "Hint: Use '/users/-' to append, --match or %inspect SOURCE "
                              "--path '/users'.")
    ip.user_ns["n"] = 3
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("jsonpatch", "n set /a 1")
    assert exc.value.code == "INVALID_ARGUMENT"
    with pytest.raises(UsageError) as exc:
        ip.run_cell_magic("jsonpatch", str(config), "[{'op': 'add'}]")
    assert exc.value.code == "INVALID_JSON"
    assert config.read_text() == CONFIG


def test_help(ip, capsys):
    ip.run_line_magic("jsonpatch", "-h")
    assert "--match ARRAY" in capsys.readouterr().out


def test_yaml_with_jsonpatch_and_jq_i(tmp_path, ip, run_cell):
    path = tmp_path / "compose.yml"
    path.write_text("services:\n  web:\n    image: nginx  # pinned\n    ports: ['80:80']\n")
    result = run_cell(f"""%jsonpatch {path} set /services/web/image '"nginx:1.27"'""")
    assert shown(result) == 'set /services/web/image: "nginx" -> "nginx:1.27"'
    ip.run_line_magic("jq", f"-i '.services.web.ports += [\"443:443\"]' {path}")
    assert path.read_text() == ("services:\n  web:\n    image: nginx:1.27  # pinned\n"
                                "    ports: ['80:80', \"443:443\"]\n")
