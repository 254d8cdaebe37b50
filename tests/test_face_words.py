"""Each face's words: every term the core names in a message or hint has words in every
face (None: the sentence is left out), a flag a face's words name is a flag that face
has, and each face spells "hint" one way (a terminal ``hint:``, a notebook ``Hint:``)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError

import jqmagic
from jqmagic.cli import commands
from jqmagic.core.errors import JqMagicError
from jqmagic.core.words import FACES, TERMS, term
from jqmagic.notebook.magics import JqMagic

TERM_USE = re.compile(r"""\bterm\(\s*['"](\w+)['"]""")
FLAG = re.compile(r"(?<![\w-])--?[a-z][\w-]*")
MAGICS = ("jq", "inspect", "jsonpatch", "webfetch", "websearch")


def used_terms() -> set[str]:
    """The terms the code names (``term('timeout')``), in every module of the package."""
    root = Path(jqmagic.__file__).parent
    return {name for path in root.rglob("*.py") for name in TERM_USE.findall(path.read_text())}


def option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every option a parser and its subcommands take."""
    found = set()
    for action in parser._actions:
        found |= set(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= option_strings(sub)
    return found


def test_every_hint_term_exists_in_every_face():
    used = used_terms()
    assert len(used) > 20  # the scan found the core's terms
    for name in used:
        assert name in TERMS, name
        assert set(TERMS[name]) == set(FACES), name
    assert set(TERMS) == used, set(TERMS) - used  # no words kept for a term nothing says


def test_the_flags_a_face_names_are_flags_it_has():
    has = {"terminal": option_strings(commands.build_parser()[0]),
           "notebook": set().union(*(option_strings(getattr(JqMagic, name).parser)
                                     for name in MAGICS))}
    assert {"--timeout", "--jsonc", "--allow-root"} <= has["terminal"]
    assert {"--timeout", "--file", "--var", "--where"} <= has["notebook"]
    for face, flags in has.items():
        for name, words in TERMS.items():
            for flag in FLAG.findall((words[face] or "").format("X", "Y")):
                assert flag in flags, (face, name, flag)


def test_an_error_spells_hint_as_its_face_does():
    error = JqMagicError("NOT_FOUND", "No /a.", f"Use {term('inspect', '/a')}.")
    assert error.render("terminal").splitlines() == [
        "NOT_FOUND: No /a.", "hint: Use jqmagic inspect FILE --path '/a'."]
    assert error.render("notebook").splitlines() == [
        "NOT_FOUND: No /a.", "Hint: Use %inspect SOURCE --path '/a'."]


@pytest.fixture
def files(tmp_path) -> Path:
    (tmp_path / "users.json").write_text(json.dumps({"users": [{"id": 1}, {"id": 2}]}))
    (tmp_path / "bad.json").write_text('{"n": "x"}\n')
    return tmp_path


def test_a_terminal_says_hint_in_lower_case(files):
    def run(*words: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "jqmagic", *words], capture_output=True,
                              text=True, timeout=60)

    inspect = run("inspect", str(files / "users.json"), "--path", "/users/9")
    assert inspect.returncode == 1 and "\nhint: " in inspect.stderr
    edit = run("query", "-i", ".n += 1", str(files / "bad.json"))
    assert edit.returncode == 5 and "\nhint: " in edit.stdout
    for said in (inspect.stderr, edit.stdout, edit.stderr):
        assert "Hint:" not in said


def test_a_notebook_says_hint_capitalised(files, run_cell):
    with pytest.raises(UsageError) as info:
        run_cell(f"%inspect {files / 'users.json'} --path /users/9")
    assert "\nHint: " in str(info.value) and "hint:" not in str(info.value)
    edit = repr(run_cell(f"%jq -i '.n += 1' {files / 'bad.json'}"))
    assert "\nHint: " in edit and "hint:" not in edit
