"""Every Python the package accepts works (issue 47).

pyproject.toml's declarations agree (requires-python, the classifiers, ruff's target, the
README); the oldest supported Python has every standard-library name the code takes
(scripts/check_names.py); and, slow, ``pip install .`` into a fresh venv of each CPython from
the one below the floor to the newest declared is refused by requires-python below the floor
and answers from every face above it (scripts/smoke.py). Interpreters are found as CI finds
them (scripts/pythons.py); a version this machine lacks is skipped, saying so.
"""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PYTHONS = runpy.run_path(str(ROOT / "scripts" / "pythons.py"))
SUPPORTED = PYTHONS["supported"]()
OLDEST, NEWEST = SUPPORTED[0], SUPPORTED[-1]
# the venvs `pip install .` goes into, kept so that a second run only rebuilds jqmagic
VENVS = ROOT / "build" / "pip-install"


def _minor(version: str) -> int:
    return int(version.split(".")[1])


def _python(version: str) -> Path:
    python = PYTHONS["find"](version)
    if python is None:
        pytest.skip(f"no CPython {version} on this machine (scripts/pythons.py looked for "
                    f"$JQMAGIC_PYTHON_{version.replace('.', '_')}, pyenv's, python{version})")
    return python


def test_the_declarations_agree():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["requires-python"] == f">={OLDEST}"
    every_one_between = [f"3.{n}" for n in range(_minor(OLDEST), _minor(NEWEST) + 1)]
    assert every_one_between == SUPPORTED
    assert pyproject["tool"]["ruff"]["target-version"] == "py" + OLDEST.replace(".", "")
    named = ", ".join(SUPPORTED[:-1]) + f" and {NEWEST}" if len(SUPPORTED) > 1 else NEWEST
    assert f"CPython {named}" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"3.{sys.version_info.minor}" in SUPPORTED  # the suite runs on one of them


def _check_names(python: Path | str, *paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-I", str(ROOT / "scripts" / "check_names.py"),
                           *map(str, paths)], capture_output=True, text=True, timeout=120)


def test_the_oldest_python_has_every_stdlib_name_the_code_takes():
    python = _python(OLDEST)
    run = _check_names(python, *(ROOT / part for part in ("jqmagic", "tests", "scripts",
                                                          "bench")))
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"every stdlib name is here (Python {OLDEST}." in run.stdout


def test_the_name_check_says_what_this_python_lacks(tmp_path):
    (tmp_path / "uses.py").write_text(
        "import math\nimport os.path as osp\nfrom json import loads, no_such_loader\n\n\n"
        "def f(x):\n    return math.exp2(x) + math.exp3(x), osp.join, osp.no_such_join\n")
    (tmp_path / "syntax.py").write_text("def g(:\n    pass\n")
    run = _check_names(sys.executable, tmp_path)
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        f"{tmp_path / 'syntax.py'}:1: does not compile: invalid syntax",
        f"{tmp_path / 'uses.py'}:3: no json.no_such_loader",
        f"{tmp_path / 'uses.py'}:7: no math.exp3",
        f"{tmp_path / 'uses.py'}:7: no os.path.no_such_join",
    ]


# from the version below the floor (pip must refuse it) to the newest declared
VERSIONS = [f"3.{n}" for n in range(_minor(OLDEST) - 1, _minor(NEWEST) + 1)]


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_pip_install_is_refused_or_answers(version, tmp_path):
    python = _python(version)
    env_dir = VENVS / version
    if not (env_dir / "bin" / "python").exists():
        shutil.rmtree(env_dir, ignore_errors=True)
        subprocess.run([str(python), "-m", "venv", str(env_dir)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", JQMAGIC_PAYLOAD_DIR=str(tmp_path / "payloads"))
    # what a clone holds (tracked and new files, nothing ignored): no stale build output
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    checkout = tmp_path / "checkout"
    for name in filter(None, files.split("\0")):
        if (ROOT / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, checkout / name)
    install = subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q",
                              str(checkout)], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=900)
    if _minor(version) < _minor(OLDEST):
        assert install.returncode != 0
        assert "requires a different Python" in install.stderr, install.stderr[-2000:]
        assert f"not in '>={OLDEST}'" in install.stderr
        return
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    smoke = subprocess.run([str(env_dir / "bin" / "python"), str(ROOT / "scripts" / "smoke.py")],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    assert f"jqmagic from {env_dir}/lib/python{version}/site-packages/jqmagic" in smoke.stdout
    for face in ("core", "command line", "%jq in IPython"):
        assert f"{face}: answers" in smoke.stdout
