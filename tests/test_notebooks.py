"""Every notebook in notebooks/ runs top to bottom in a real kernel without an error.

The kernel inherits a test environment: small sizes (``JQMAGIC_NOTEBOOK_SMALL=1``), a
private payload store, and no search credentials (so ``%websearch`` fails the same way
everywhere). An error is allowed only in a cell tagged ``raises-exception``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CREDENTIAL_VARIABLES = ("BRAVE_API_KEY", "GOOGLE_SEARCH_API_KEY", "GOOGLE_SEARCH_ENGINE_ID",
                        "GOOGLE_API_KEY", "GOOGLE_CSE_ID")


@pytest.fixture
def notebook_env(tmp_path, monkeypatch):
    """The environment a notebook kernel starts with (it copies ``os.environ``)."""
    monkeypatch.setenv("JQMAGIC_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in CREDENTIAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    workdir = tmp_path / "work"
    workdir.mkdir()
    return workdir


SOLUTION_LINE = re.compile(r"^answer = .*$", re.M)


def with_solutions(notebook):
    """The course with every exercise's ``answer = ''`` filled in from the solution folded
    under it (what a learner who opens each "Show a solution" would type)."""
    cells = notebook.cells
    for index, cell in enumerate(cells):
        if "exercise" in cell.metadata.get("tags", []):
            solution = cells[index + 1]
            assert "solution" in solution.metadata.get("tags", []), cell.source[:60]
            line = SOLUTION_LINE.search(solution.source).group(0)
            assert "answer = ''" in cell.source
            cell.source = cell.source.replace("answer = ''", line, 1)
    return notebook


def execute(path: Path, workdir: Path):
    notebook = nbformat.read(path, as_version=4)
    if path.name == "02-learn-jq.ipynb":
        notebook = with_solutions(notebook)
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(workdir)}}
                   ).execute()
    return notebook


def cell_text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text") or "\n".join(output.get("traceback", []))
                     or str(output.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def outputs_text(notebook) -> str:
    return "\n".join(cell_text(cell) for cell in notebook.cells)


def output_of(notebook, source_fragment: str) -> str:
    """The text output of the one code cell whose source contains ``source_fragment``."""
    cells = [c for c in notebook.cells if c.cell_type == "code" and source_fragment in c.source]
    assert len(cells) == 1, f"{len(cells)} cells contain {source_fragment!r}"
    return cell_text(cells[0])


def test_there_are_the_four_notebooks():
    assert [p.name for p in NOTEBOOKS] == ["01-tour.ipynb", "02-learn-jq.ipynb",
                                           "03-big-files.ipynb", "04-agents.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


def test_stored_notebooks_match_their_cell_lists():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_notebooks.py"),
                          "--check"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_without_errors(path, notebook_env):
    notebook = execute(path, notebook_env)
    for cell in notebook.cells:
        allowed = "raises-exception" in cell.get("metadata", {}).get("tags", [])
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"
                  or (o.get("name") == "stderr" and "Error" in o.get("text", ""))]
        if not allowed:
            assert errors == [], (cell.source[:80], errors)
    CHECKS[path.name](notebook, notebook_env)


def check_tour(notebook, workdir: Path) -> None:
    text = outputs_text(notebook)
    assert "Truncated. Showing 100 of 300 results." in text
    assert "INVALID_QUERY" in text
    shape = [c for c in notebook.cells if c.source == "%inspect sample-data/repos.json"]
    assert "license  object {1 key}  (86/300)" in cell_text(shape[0])
    browse = [o for c in notebook.cells if c.source.endswith("--browse") for o in c.outputs]
    assert "application/vnd.jupyter.widget-view+json" in browse[0]["data"]
    assert "-  \"version\": \"1.4.0\"," in output_of(notebook, "--dry-run")
    assert '{"name":"tour-app","version":"1.5.0"}' in output_of(notebook, "{name, version}")
    assert '"lint":"eslint ."' in output_of(notebook, "{scripts, devDependencies}")
    page = output_of(notebook, "release-notes.html --limit")
    assert "# tour-app 1.5.0" in page and "**twice as fast**" in page
    assert "| 1.3.x | delete node_modules |" in page
    assert "Privacy" not in page and "Blog" not in page  # the page's chrome is dropped
    assert "$5 a month, or $20 with support" in page
    nulls = output_of(notebook, "| .full_nam'")
    assert "Showing 100 of 300 results" in nulls and "did you mean .[].full_name?" in nulls
    viewer = [c for c in notebook.cells if c.source.endswith("--to json")][0].outputs
    assert "application/json" in viewer[-1]["data"]
    assert '"lint"' in output_of(notebook, "--jq '.scripts | keys'")
    assert "AUTH_MISSING" in output_of(notebook, "%websearch")
    shell = re.sub("\x1b\\[[0-9;]*m", "", output_of(notebook, "jqmagic query -c"))
    assert '{"full_name":"rob/project-0","language":"TypeScript"}' in shell  # jq colours a tty
    assert '"license":{"spdx_id":"string"}' in output_of(notebook, "jqmagic inspect")
    copy = workdir / "sample-data" / "package-copy.json"
    assert '"version": "1.5.0"' in copy.read_text()


def check_course(notebook, workdir: Path) -> None:
    exercises = [c for c in notebook.cells if "exercise" in c.metadata.get("tags", [])]
    solutions = [c for c in notebook.cells if "solution" in c.metadata.get("tags", [])]
    assert len(exercises) == len(solutions) == 10
    for cell in exercises:
        assert cell_text(cell).startswith("\u2714 Correct:"), cell_text(cell)
    for cell in solutions:  # folded: a learner sees only "Show a solution"
        assert cell.cell_type == "markdown"
        assert cell.source.startswith("<details><summary>Show a solution</summary>")
    # the one deliberate miss shows the learner a diff and the hint
    miss = output_of(notebook, "jqmagic.check('.address'")
    assert miss.startswith("\u2718 Not yet: .address")
    assert "Expected a string, got an object." in miss
    assert "Hint: The name is a key at the top level: .name" in miss


def check_big_files(notebook, workdir: Path) -> None:
    size = (workdir / "big" / "orders.json").stat().st_size
    assert 4_900_000 < size < 5_100_000  # the small size that JQMAGIC_NOTEBOOK_SMALL asks for
    shown = output_of(notebook, "refunded = timed")
    found = re.search(r"Truncated\. Showing 20 of (\d+) results\. The full result is in "
                      r"payload ([0-9a-f]{32})", shown)
    assert found, shown[-400:]
    total, pid = int(found.group(1)), found.group(2)
    payload = workdir.parent / "payloads" / pid / "payload.json"
    assert len(payload.read_text().split()) == total
    assert f"({total}, [" in output_of(notebook, "every_id = jqmagic.payload")
    cut = output_of(notebook, "%jq -c '.orders[:2000]'")
    assert "over the 2,000-token limit" in cut and len(cut) < 10_000
    streamed = output_of(notebook, "streamed = timed")  # the file is over a 2 MB budget
    assert re.search(r"^\d+ by the stream(-fast)? engine$", streamed, re.M), streamed
    refused = output_of(notebook, "jqmagic.query('.orders | map(.total) | add'")
    assert refused.startswith("TOO_LARGE") and "[.items[] | select(.ok)]" in refused
    cluster = output_of(notebook, "LocalCluster(n_workers=2")
    if "is not installed" not in cluster:  # dask is an optional extra
        assert re.search(r"Dask dashboard: http://\S+/status", cluster), cluster
        assert "same as one process: True" in output_of(notebook, "worst = jqmagic.query")
    timings = output_of(notebook, "for label, seconds in timings.items()")
    for label in ("count the orders", "group by country", "refunded ids (bounded)"):
        assert re.search(rf"{re.escape(label)} +\d+\.\d\d s", timings), timings


def check_agents(notebook, workdir: Path) -> None:
    listing = output_of(notebook, "'tool', '--list'")
    assert re.search(r"json_patch +destructive +Edit a JSON file", listing), listing
    assert '"jq_expression": {' in output_of(notebook, "definition = next(")
    assert '"error_code": "TOO_LARGE"' in output_of(notebook, "call('read_file'")
    assert '"arrayLength": 3000' in output_of(notebook, "call('json_inspect'")
    names = output_of(notebook, "jq_expression='.[] | .full_name')")
    assert '"count": 3000' in names and "Showing results 1-100 of 3,000." in names
    nxt = output_of(notebook, "**r['next_arguments']")
    assert '"output": "\\"linus/project-100\\"' in nxt
    whole = output_of(notebook, "whole = call('jq'")
    assert "Not sent: the first result alone is over the bound" in whole
    assert '"shape": [' in whole and '"output": "3000"' in whole
    assert "keys are: login, type" in output_of(notebook, ".[0].owner.name | ascii_upcase")
    assert "Did you mean 'jq_expression'?" in output_of(notebook, "expression='keys'")
    assert 'args {\\"least\\": VALUE}' in output_of(notebook, "> $least) | .full_name'")
    faces = output_of(notebook, "for face in")
    assert "notebook: Bind it with --arg least VALUE" in faces
    assert 'agent: Bind it with args {"least": VALUE}.' in faces
    strict = output_of(notebook, "strict=True")
    assert '"type": [\n    "integer",\n    "null"\n  ]' in strict
    assert '"success": true' in strict and '"arrayLength": 300' in strict
    assert '"dryRun": true' in output_of(notebook, "dryRun=True")
    refused = output_of(notebook, "operation='set', path='/scripts'")
    assert '"error_code": "PATCH_CONFLICT"' in refused
    assert '"test": "jest"' in (workdir / "sample-data" / "agent-package.json").read_text()
    assert '"lint": "eslint ."' in (workdir / "sample-data" / "agent-package.json").read_text()
    assert output_of(notebook, "JQMAGIC_SANDBOX'] = '1'").count('"SANDBOX_DENIED"') == 2
    assert '"error_code": "AUTH_MISSING"' in output_of(notebook, "call('web_search_brave'")
    shell = output_of(notebook, "'tool', 'web_search_brave'")
    assert "exit status 1" in shell and '{"kind": "config_required"' in shell
    assert '"service": "string"' in output_of(notebook, "jqmagic.tools.wrap(list_events)")


CHECKS = {"01-tour.ipynb": check_tour, "02-learn-jq.ipynb": check_course,
          "03-big-files.ipynb": check_big_files, "04-agents.ipynb": check_agents}


COURSE = ROOT / "notebooks" / "02-learn-jq.ipynb"


def test_course_exercises_start_empty():
    stored = nbformat.read(COURSE, as_version=4)
    exercises = [c for c in stored.cells if "exercise" in c.metadata.get("tags", [])]
    assert all("answer = ''" in c.source for c in exercises)


@pytest.mark.parametrize(("number", "near_miss"), [
    (9, "[.books[] | select(.year > $min and .year < $max) | .title]"),
    (10, ".books | max_by(.price) | .title"),
    (1, ".books[1:2] | map(.tags)"),
    (4, ".books | map(.price) | add"),
])
def test_course_checks_refuse_near_misses(number, near_miss, ip, tmp_path, monkeypatch):
    """An exercise's check fails an answer that misses what it asks (>= read as >, the
    stock filter left out), and passes the folded solution."""
    monkeypatch.chdir(tmp_path)
    cells = with_solutions(nbformat.read(COURSE, as_version=4)).cells
    setup = next(c for c in cells if "shop = {" in c.source)
    ip.run_cell(setup.source)
    exercise = [c for c in cells if "exercise" in c.metadata.get("tags", [])][number - 1]
    solved = ip.run_cell(exercise.source).result
    assert solved.passed, solved.text
    line = SOLUTION_LINE.search(exercise.source).group(0)
    missed = ip.run_cell(exercise.source.replace(line, f"answer = {near_miss!r}")).result
    assert not missed.passed, missed.text
