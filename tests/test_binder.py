"""binder/ works: its requirements install into a fresh venv, and the tour runs with them.

This is what mybinder.org's repo2docker does (``pip install -r binder/requirements.txt`` from
the repository root, then ``postBuild``), minus the container. pip's cache is reused, so a
second run costs under a minute; jqmagic itself is installed from a copy of this checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
BINDER = ROOT / "binder"

pytestmark = pytest.mark.binder

RUN_TOUR = """
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
nb.cells.append(nbformat.v4.new_code_cell("import sys; print('kernel=' + sys.executable)"))
NotebookClient(nb, timeout=300, resources={"metadata": {"path": sys.argv[2]}}).execute()
# an error only where a cell is tagged to raise it (as tests/test_notebooks.py allows)
errors = [o.get("ename") for c in nb.cells for o in c.get("outputs", [])
          if o.get("output_type") == "error"
          and "raises-exception" not in c.get("metadata", {}).get("tags", [])]
shown = sum(len(c.get("outputs", [])) for c in nb.cells)
print(f"outputs={shown} errors={errors}")
print(nb.cells[-1].outputs[0]["text"])
"""


def test_binder_files():
    requirements = (BINDER / "requirements.txt").read_text().split("\n")
    lines = [line for line in requirements if line and not line.startswith("#")]
    assert lines[0] == ".[df]"  # this checkout, as repo2docker installs it from the root
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    for script in ("postBuild", "start"):
        assert os.access(BINDER / script, os.X_OK), script


def checkout_copy(target: Path) -> Path:
    """The repository as Binder clones it: no venv, no build output, no local data."""
    junk = {".venv", ".git", "build", ".hypothesis", ".pytest_cache", ".ruff_cache",
            "__pycache__", "sample-data", "big"}

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = {n for n in names if n in junk or n.endswith(".egg-info")}
        if Path(folder) == ROOT / "bench":
            skipped.add("data")
        return skipped

    shutil.copytree(ROOT, target, ignore=ignore)
    return target


def test_requirements_install_and_run_the_tour(tmp_path):
    repo = checkout_copy(tmp_path / "repo")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith(("BRAVE_", "GOOGLE_"))}
    env.update(HOME=str(tmp_path / "home"), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_CACHE_DIR=os.environ.get("PIP_CACHE_DIR")
               or str(Path.home() / ".cache" / "pip"),
               JQMAGIC_PAYLOAD_DIR=str(tmp_path / "payloads"))
    (tmp_path / "home").mkdir()
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "-r", "binder/requirements.txt"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]

    # jqmagic comes from this checkout, with the JupyterLab and widgets a Binder serves
    show = subprocess.run(
        [str(python), "-c", "import jqmagic, jupyterlab, ipywidgets, pandas, json; "
         "print(json.dumps([jqmagic.__file__, jupyterlab.__version__]))"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert show.returncode == 0, show.stderr
    where, lab_version = json.loads(show.stdout)
    assert where.startswith(str(env_dir)), where  # installed, not the checkout on sys.path
    assert int(lab_version.split(".")[0]) == 4
    extensions = subprocess.run([str(env_dir / "bin" / "jupyter"), "labextension", "list"],
                                env=env, capture_output=True, text=True, timeout=120)
    assert "@jupyter-widgets/jupyterlab-manager" in extensions.stdout + extensions.stderr

    # postBuild: the tour is where a Binder opens
    subprocess.run([str(repo / "binder" / "postBuild")], env=env, check=True, timeout=60)
    config = subprocess.run(
        [str(python), "-c", "from jupyter_server.serverapp import ServerApp; a = ServerApp(); "
         "a.load_config_file(); print(a.default_url)"],
        env=env, capture_output=True, text=True, timeout=120)
    assert config.stdout.strip() == "/lab/tree/notebooks/01-tour.ipynb", config.stderr
    assert (repo / config.stdout.strip().removeprefix("/lab/tree/")).exists()

    # the tour, top to bottom, in a kernel of that venv (through binder/start, as on Binder)
    workdir = tmp_path / "work"
    workdir.mkdir()
    run = subprocess.run(
        [str(repo / "binder" / "start"), str(python), "-c", RUN_TOUR,
         str(repo / "notebooks" / "01-tour.ipynb"), str(workdir)],
        cwd=workdir, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    assert "errors=[]" in run.stdout
    assert f"kernel={python}" in run.stdout  # the kernel runs in the Binder venv
    assert (workdir / "sample-data" / "package-copy.json").exists()
