"""The notebooks in a real browser: JupyterLab on 127.0.0.1, Debian's Chromium driven by
Playwright, judged by what the page shows.

The tour and the course run through JupyterLab's own "Run All Cells"; then: a stream's
results each in their own block with the truncation line and the "did you mean" beside
them, nothing typeset by MathJax, the SchemaBrowser driven by keyboard alone (open, move,
search a value, copy a jq path that then works in ``%jq``, run the jq box), and the tour,
saved and reopened without its kernel, showing the tree's saved snapshot. First contact
with 200,000 records: the tree looked at before any key, every unmodified key kept from
JupyterLab's shortcuts, a value at depth 2 found and its own path copied, a restarted
kernel said; a 51 MB Python variable queried (its timings printed). The search row at
1,000 px on 220,000 customers, a variable and a 55 MB file: its progress note, its hit,
"/" again (issue 41). By hand after the tour: a node closed above the selection, the jq
box's preview on one match then the next, --to json past the viewer, a runaway stopped,
double quotes cut by the program's strings. Screenshots of each state go to
build/e2e-*.png. Needs the ``e2e`` extra and ``/usr/bin/chromium`` (``.ci/run`` installs
both; ``apt-get install chromium`` on Debian).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
BUILD = ROOT / "build"
CHROMIUM = os.environ.get("JQMAGIC_CHROMIUM", "/usr/bin/chromium")
# What Chromium needs on a headless machine with a closed network (see .ci/run).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
NOTEBOOKS = ("01-tour.ipynb", "02-learn-jq.ipynb", "03-big-files.ipynb", "04-agents.ipynb")
OUTPUTS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea"
WIDE = "wide-object.ipynb"  # written by the test: one object of 100,000 keys
FIRST = "first-contact.ipynb"  # written by the test: 200,000 records (51 MB), browsed
BIG = "big-variable.ipynb"  # written by the test: the same, browsed and queried
DEEP = 199_997  # the record whose owner (depth 2) holds the needle
FIRST_CONTACT_SETUP = f"""\
%load_ext jqmagic
import time
from jqmagic import samples
recs = samples.repos(200_000)
recs[{DEEP}]["owner"]["login"] = "needle-deep"
for i, rec in enumerate(recs):
    rec["score"] = (i * 7919 % 10007) / 97.0"""
FIRST_CONTACT_BIG = f"""\
started = time.perf_counter()
first = %jq '.[0]' recs
took_first = time.perf_counter() - started
started = time.perf_counter()
later = %jq '.[{DEEP}].owner.login' recs
took_later = time.perf_counter() - started
started = time.perf_counter()
again = %jq '[.[] | .score] | add' recs
took_again = time.perf_counter() - started
print(f"big variable: first {{took_first:.2f}} s, later {{took_later:.2f}} s, "
      f"{{took_again:.2f}} s; {{first.values[0]['full_name']}} {{later.values}}")"""

SEARCH = "search-row.ipynb"  # written by the test: 220,000 records, a variable and a file
LATE = "Nagoya-late"  # held by the last record's order alone: the last column searched
LATE_PATH, LATE_POINTER = ".[219999].orders[0].shipping.city", "/219999/orders/0/shipping/city"
# A whole pass over these records takes about 0.5 s on a quiet host, inside one of the
# search's 2 s slices, so its progress note would never show: the notebook cuts the slice
# to 0.1 s, and the note is judged by what it says and where it stands.
SEARCH_SETUP = f"""\
%load_ext jqmagic
import json, os, time
from jqmagic import samples
from jqmagic.core.browsing import model
model.SEARCH_SECONDS = 0.1  # a slice of a search (2 s in use): the note shows progress
model.SEARCH_PATIENCE = 600  # on its own (60 s in use): a loaded CI host ran past a minute
customers = samples.customers(220_000)
late = {{"total": 7, "shipping": {{"carrier": "Yamato", "city": {LATE!r}}}}}
customers[-1]["orders"] = [late]  # the one value found in the last column read
with open("customers.json", "w") as out:
    json.dump(customers, out)
size = os.path.getsize("customers.json") / 2**20
print(f"customers: {{len(customers):,}} records, {{size:.1f}} MB as JSON")"""
SEARCH_FILE = """\
started = time.perf_counter()
count = %jq 'length' customers.json
took_jq = time.perf_counter() - started
started = time.perf_counter()
browser = %inspect customers.json --browse
took_browse = time.perf_counter() - started
print(f"%jq 'length' on the file: {took_jq:.2f} s; "
      f"%inspect FILE --browse right after: {took_browse:.2f} s")
browser"""

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"no Chromium at {CHROMIUM}: apt-get install -y chromium "
                              "(.ci/run does)"),
]


def require(module: str):
    """Import ``module`` from the e2e extra; a clear failure, not a skip, when it is missing
    (``make test`` installs the extra, so only Chromium may be absent)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        pytest.fail(f"{module} is missing: pip install -e '.[e2e]' (make test does)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving copies of the notebooks from a scratch folder, with a token."""
    require("jupyterlab")
    root = tmp_path_factory.mktemp("lab")
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "notebooks" / name, root / name)
    notebook_of(root / WIDE, [
        "import jqmagic\njqmagic.SchemaBrowser(value={f'k{i}': i for i in range(100_000)})"])
    for name, cells in ((FIRST, [FIRST_CONTACT_SETUP, "%inspect recs --browse"]),
                        (BIG, [FIRST_CONTACT_SETUP, "%inspect recs --browse",
                               FIRST_CONTACT_BIG]),
                        (SEARCH, [SEARCH_SETUP, "%inspect customers --browse",
                                  SEARCH_FILE])):
        notebook_of(root / name, cells)
    with running_lab(root) as running:
        yield running


@contextlib.contextmanager
def running_lab(root: Path, theme: str | None = None):
    """JupyterLab serving ``root`` on 127.0.0.1 with a token, its settings, workspaces and
    payloads inside ``root``: every cell in the DOM, no news, ``theme`` if given (a
    theme's name, as Settings > Theme lists it)."""
    # every cell in the DOM (JupyterLab 4 renders only the visible ones by default), no news
    settings = root / ".settings" / "@jupyterlab"
    (settings / "notebook-extension").mkdir(parents=True, exist_ok=True)
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}')
    (settings / "apputils-extension").mkdir(exist_ok=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    if theme:
        (settings / "apputils-extension" / "themes.jupyterlab-settings").write_text(
            json.dumps({"theme": theme}))
    port, token = free_port(), secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAVE_", "GOOGLE_"))}
    env.update(JUPYTER_CONFIG_DIR=str(root / ".config"), JUPYTER_RUNTIME_DIR=str(root / ".rt"),
               XDG_CONFIG_HOME=str(root / ".xdg"), JQMAGIC_PAYLOAD_DIR=str(root / ".payloads"),
               JQMAGIC_NOTEBOOK_SMALL="1")
    log = open(root / "jupyterlab.log", "w")  # noqa: SIM115 (closed in teardown)
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1",
         f"--port={port}", "--port-retries=0", f"--IdentityProvider.token={token}",
         "--allow-root", "--ServerApp.terminals_enabled=False",
         "--LabApp.extension_manager=readonly",
         f"--ServerApp.root_dir={root}", f"--LabApp.workspaces_dir={root / '.ws'}",
         f"--LabApp.user_settings_dir={root / '.settings'}",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--ServerApp.open_browser=False"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5) as resp:
                if resp.status == 200:
                    break
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            log.close()
            output = (root / "jupyterlab.log").read_text()[-3000:]
            raise RuntimeError(f"JupyterLab did not start:\n{output}")
        time.sleep(0.5)
    try:
        yield {"base": base, "token": token, "root": root}
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def page(lab):
    sync_api = require("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1400})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=lab["base"])
        tab = context.new_page()
        tab.set_default_timeout(60_000)
        try:
            yield tab
        finally:
            BUILD.mkdir(exist_ok=True)
            tab.screenshot(path=str(BUILD / "e2e-last-page.png"))
            context.close()
            browser.close()


def shot(locator, name: str) -> None:
    BUILD.mkdir(exist_ok=True)
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(BUILD / f"e2e-{name}.png"))


def shot_top(page, locator, name: str, height: int = 600) -> None:
    """A screenshot of the page from the top of ``locator`` down (a tall output's start)."""
    BUILD.mkdir(exist_ok=True)
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.screenshot(path=str(BUILD / f"e2e-{name}.png"), clip={
        "x": max(0, box["x"] - 70), "y": max(0, box["y"] - 10),
        "width": box["width"] + 80, "height": height})


def run_all_cells(page) -> float:
    """Run > Run All Cells, again if no cell started within 15 s (a notebook tab not yet
    active has the command disabled); the moment it was first asked."""
    prompts = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell "
                           ".jp-InputPrompt")
    asked = time.monotonic()
    for _ in range(3):
        # the command acts on the current notebook: make it this one (another tab, still
        # running, may hold the focus)
        page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-InputPrompt").first.click()
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if any(t.strip() != "[ ]:" for t in prompts.all_inner_texts()):
                return asked
            time.sleep(0.25)
        page.keyboard.press("Escape")  # a menu left open
    raise AssertionError("Run All Cells started no cell")


def open_and_run_all(page, lab, name: str) -> float:
    """Open notebook ``name``, wait for its kernel, Run All Cells; the seconds it took."""
    started = time.monotonic()
    # ?reset: a workspace of this notebook alone (a tab left from another test, its kernel
    # still busy, once took the Run menu's command)
    page.goto(f"{lab['base']}/lab/tree/{name}?reset&token={lab['token']}")
    stored = json.loads((lab["root"] / name).read_text())
    code_cells = sum(c["cell_type"] == "code" for c in stored["cells"])
    page.wait_for_function(  # every cell rendered, and the kernel started and idle
        "n => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".jp-CodeCell').length === n && /\\| Idle/.test(document.querySelector("
        "'#jp-main-statusbar')?.innerText || '')", arg=code_cells, timeout=180_000)
    run_all_cells(page)
    prompts = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell "
                           ".jp-InputPrompt")
    deadline = time.monotonic() + 300
    while True:
        texts = prompts.all_inner_texts()
        if sum(t.strip().strip("[]:").strip().isdigit() for t in texts) == code_cells:
            break
        assert time.monotonic() < deadline, f"cells still running: {texts}"
        time.sleep(0.5)
    return time.monotonic() - started


def cell(page, source_start: str):
    """The code cell whose editor text starts with ``source_start``."""
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
    for index in range(cells.count()):
        found = cells.nth(index)
        if found.locator(".jp-InputArea-editor").inner_text().strip().startswith(source_start):
            return found
    raise AssertionError(f"no cell starts with {source_start!r}")


def no_mathjax(page) -> None:
    """Nothing in any output was typeset as mathematics."""
    typeset = page.locator(f"{OUTPUTS} mjx-container, {OUTPUTS} .MathJax")
    assert typeset.count() == 0, typeset.first.inner_text()


def test_tour_in_jupyterlab(lab, page, ip):
    ran = open_and_run_all(page, lab, "01-tour.ipynb")

    # no cell failed but the one meant to (no search key), and its error is one line
    errors = page.locator(f"{OUTPUTS} [data-mime-type='application/vnd.jupyter.stderr']"
                          ).all_inner_texts()
    assert len(errors) == 1 and errors[0].startswith("AUTH_MISSING"), errors
    assert "UsageError" not in errors[0] and "Traceback" not in errors[0]

    # a stream: one block per result, the truncation line and the hint beside them
    stream = cell(page, "%jq '.[] | .full_nam'")
    note = stream.locator(".jqmagic-note")
    assert "Showing 100 of 300 results" in note.inner_text()
    assert "did you mean .[].full_name?" in note.inner_text()
    assert stream.locator(".jqmagic-result").count() == 100
    note.scroll_into_view_if_needed()
    assert note.is_visible()
    shot_top(page, note, "stream-with-bound-line")

    # --to json: JupyterLab's viewer, and the bound line still in view beside it
    viewer_cell = cell(page, "%jq '.[] | {full_name, stars")
    viewer_cell.locator(".jp-RenderedJSON").wait_for()
    assert "Showing 100 of 300 results" in viewer_cell.locator(".jqmagic-note").inner_text()
    shot_top(page, viewer_cell.locator(".jqmagic-note"), "json-viewer-with-bound-line")

    # money in a fetched page is not mathematics
    page_cell = cell(page, "get_ipython().run_line_magic('webfetch', f'{base}/release")
    shown = page_cell.locator(".jp-OutputArea").inner_text()
    assert "$5 a month, or $20 with support" in shown
    no_mathjax(page)

    browse_tree_by_keyboard(page, ip, lab)
    reopened_shows_the_snapshot(page, lab)
    print(f"tour ran in JupyterLab in {ran:.1f} s")


def selected(page) -> str:
    return page.locator(".jqm-row.jqm-selected").get_attribute("data-id") or ""


def wait_selected(page, node: str) -> None:
    page.wait_for_function(
        "id => document.querySelector('.jqm-row.jqm-selected')?.dataset.id === id", arg=node)


def browse_tree_by_keyboard(page, ip, lab) -> None:
    browser = cell(page, "%inspect sample-data/repos.json --browse")
    tree = browser.locator(".jqm-tree")
    tree.wait_for()
    assert browser.locator(".jqmagic-snapshot").is_hidden()  # the live view replaces it
    # drawn before any key: the shape open (the elements and their keys), the key legend
    browser.locator(".jqm-row[data-id='.[].full_name']").wait_for(timeout=5_000)
    assert "/ search" in browser.locator(".jqm-keys").inner_text()
    shot(browser, "tree-fresh")
    tree.focus()  # as Tab would
    page.keyboard.press("ArrowDown")
    wait_selected(page, ".[]")
    for _ in range(2):
        page.keyboard.press("ArrowDown")
    wait_selected(page, ".[].full_name")
    page.keyboard.press("ArrowLeft")  # a leaf: left goes to its parent
    wait_selected(page, ".[]")
    assert browser.locator(".jqm-row[data-id='.[].owner'] .jqm-badge").inner_text() == "object"
    shot(browser, "tree-opened-by-keyboard")

    # "/" searches; a value (not a key) is found by the kernel; ArrowDown selects the hit
    page.keyboard.press("/")
    page.keyboard.type("margaret/project-5")
    page.keyboard.press("Enter")
    page.wait_for_function("() => /\\d+ match/.test(document.querySelector('.jqm-note')"
                           ".innerText)")
    assert "/full_name" in browser.locator(".jqm-matches").inner_text()
    page.keyboard.press("ArrowDown")
    wait_selected(page, ".[].full_name")
    page.wait_for_function("() => document.querySelector('.jqm-details').innerText"
                           ".includes('/5/full_name')")  # where this match is
    details = browser.locator(".jqm-details").inner_text()
    assert ".[5].full_name" in details and "/0/" not in details  # one value, both forms
    shot(browser, "tree-search-a-value")

    # "c" copies the chosen match's own jq path; it works in %jq on the same file
    page.keyboard.press("c")
    page.wait_for_function("() => document.querySelector('.jqm-toast').innerText"
                           ".startsWith('copied')")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == ".[5].full_name"
    result = ip.run_line_magic("jq", f"'{copied}' {lab['root'] / 'sample-data/repos.json'}")
    assert result.values == ["margaret/project-5"]
    page.keyboard.press("ArrowUp")  # the node itself again: its path for every element
    page.keyboard.press("ArrowDown")
    wait_selected(page, ".[].full_name")

    # the jq box runs on Enter with a busy state, on the selected node
    browser.locator(".jqm-jq").focus()
    page.keyboard.type("ascii_upcase")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.jqm-output').innerText"
                           ".includes('ROB/PROJECT-0')")
    assert "Showing 20 of 300 results" in browser.locator(".jqm-output").inner_text()
    assert not browser.locator(".jqm-root").evaluate("e => e.classList.contains('jqm-is-busy')")
    shot(browser, "tree-jq-box")
    assert tree.evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # no sideways scrollbar


def reopened_shows_the_snapshot(page, lab) -> None:
    """Save, shut the kernel down, close and reopen: the saved snapshot of the tree shows."""
    page.keyboard.press("Escape")
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Save Notebook").first.click()
    saved = lab["root"] / "01-tour.ipynb"
    deadline = time.monotonic() + 30
    while "jqmagic-snapshot" not in saved.read_text():
        assert time.monotonic() < deadline, "the notebook was not saved"
        time.sleep(0.5)
    # a restarted kernel no longer has the tree: reloaded, the page shows the snapshot
    page.locator(".lm-MenuBar-itemLabel", has_text="Kernel").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Restart Kernel…").first.click()
    page.locator(".jp-Dialog-button", has_text="Restart").click()
    page.wait_for_function("() => /\\| Idle/.test(document.querySelector("
                           "'#jp-main-statusbar')?.innerText || '')")
    page.reload()
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jqmagic-snapshot").wait_for()
    page.wait_for_timeout(1_000)  # the widget manager gives up on the model meanwhile
    dead = page.get_by_text("Error displaying widget")
    assert all(not dead.nth(i).is_visible() for i in range(dead.count()))
    page.locator(".lm-MenuBar-itemLabel", has_text="Kernel").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Shut Down Kernel").first.click()
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Close Tab").first.click()
    page.wait_for_selector(".jp-NotebookPanel", state="detached")
    page.goto(f"{lab['base']}/lab/tree/01-tour.ipynb?token={lab['token']}&reset")
    snapshot = page.locator(".jp-NotebookPanel .jqmagic-snapshot")
    snapshot.wait_for()
    text = snapshot.inner_text()
    assert "full_name" in text and "jq path" in text and ".[].full_name" in text
    shot(snapshot, "reopened-snapshot")


def test_course_in_jupyterlab(lab, page):
    open_and_run_all(page, lab, "02-learn-jq.ipynb")
    errors = page.locator(f"{OUTPUTS} [data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.all_inner_texts()
    verdicts = page.locator(OUTPUTS, has_text="Your turn")
    assert verdicts.count() == 10  # every exercise waits for the learner
    solutions = page.locator(".jp-MarkdownCell details")
    assert solutions.count() == 10
    first = solutions.first
    assert first.locator("code").first.is_hidden()  # folded until asked for
    first.locator("summary").click()
    assert ".books[1].tags" in first.locator("code").first.inner_text()
    miss = cell(page, "jqmagic.check('.address'")
    legend = miss.locator(".jp-OutputArea").inner_text()
    assert "- expected, + yours, line by line:" in legend
    assert "@@" not in legend  # no diff machinery for a learner
    no_mathjax(page)
    shot(miss, "course-miss-with-legend")


@pytest.mark.parametrize("name", NOTEBOOKS[2:])
def test_other_notebooks_in_jupyterlab(lab, page, name):
    """The big-files and agents notebooks run in JupyterLab: an error only where a cell is
    tagged to raise one, and nothing typeset by MathJax."""
    open_and_run_all(page, lab, name)
    stored = [c for c in json.loads((ROOT / "notebooks" / name).read_text())["cells"]
              if c["cell_type"] == "code"]
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
    for index, source in enumerate(stored):
        failed = cells.nth(index).locator(
            "[data-mime-type='application/vnd.jupyter.stderr']").count()
        allowed = "raises-exception" in source.get("metadata", {}).get("tags", [])
        assert not failed or allowed, "".join(source["source"])[:80]
    no_mathjax(page)
    shot(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)"), name.split(".")[0])


def test_100k_keys_scroll_in_a_window_of_rows(lab, page):
    open_and_run_all(page, lab, WIDE)
    tree = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jqm-tree")
    tree.wait_for()
    rows = tree.locator(".jqm-row")
    assert rows.count() < 40  # only the rows in view are drawn
    tree.focus()
    started = time.monotonic()
    page.keyboard.press("End")  # the last of 100,001 rows, fetched from the kernel
    wait_selected(page, ".k99999")
    jumped = time.monotonic() - started
    started = time.monotonic()
    tree.hover()
    for _ in range(20):
        page.mouse.wheel(0, -2_000)
    page.keyboard.press("Home")
    wait_selected(page, ".")
    assert rows.count() < 40
    assert jumped < 5 and time.monotonic() - started < 10, jumped
    shot(tree, "tree-100k-keys")


def notebook_state(page) -> dict:
    """What JupyterLab's command-mode shortcuts would change: cells, their kinds and text,
    the active cell, dialogs, the widget itself."""
    return page.evaluate("""() => {
        const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
        const cells = [...panel.querySelectorAll('.jp-Cell')];
        return {cells: cells.map(c => [c.className.match(/jp-(Code|Markdown|Raw)Cell/)[1],
                                        c.querySelector('.jp-InputArea-editor').innerText]),
                active: cells.findIndex(c => c.classList.contains('jp-mod-active')),
                dialogs: document.querySelectorAll('.jp-Dialog').length,
                trees: panel.querySelectorAll('.jqm-tree').length};
    }""")


def focused(page, css: str) -> bool:
    return page.evaluate("c => !!document.activeElement?.matches(c)", css)


def notebook_of(path, sources: list[str]) -> None:
    """A notebook of code cells of ``sources`` at ``path``, on the python3 kernel."""
    nbformat = require("nbformat")
    kernel = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                             "name": "python3"}}
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(c) for c in sources], metadata=kernel), path)


def run_all(page, lab, name: str, cells: int) -> float:
    """Open notebook ``name``, Run All Cells as soon as its kernel is idle; the moment it
    was asked (the cells still run)."""
    # ?reset: a workspace of this notebook alone (a tab left from another test, its kernel
    # still busy, once took the Run menu's command)
    page.goto(f"{lab['base']}/lab/tree/{name}?reset&token={lab['token']}")
    page.wait_for_function(
        "n => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".jp-CodeCell').length === n && /\\| Idle/.test(document.querySelector("
        "'#jp-main-statusbar')?.innerText || '')", arg=cells, timeout=180_000)
    return run_all_cells(page)


def wait_idle(page, timeout: int = 300_000) -> None:
    page.wait_for_function("() => /\\| Idle/.test(document.querySelector("
                           "'#jp-main-statusbar')?.innerText || '')", timeout=timeout)


def search_deep(page, browser) -> float:
    """Search the value at depth 2 of the last records ("/" from the tree); ArrowDown
    chooses the hit. The seconds until the hit was listed."""
    browser.locator(".jqm-tree").focus()
    page.keyboard.press("/")
    page.keyboard.type("needle-deep")
    started = time.monotonic()
    page.keyboard.press("Enter")
    page.wait_for_function("p => document.querySelector('.jqm-matches').innerText"
                           ".includes(p)", arg=f"/{DEEP}/owner/login", timeout=30_000)
    took = time.monotonic() - started
    # the note comes in the model's next message (after the matches): waited for, on a busy
    # machine it lags behind them
    browser.locator(".jqm-note", has_text=re.compile(r"^(at least )?1 match")).wait_for(
        timeout=10_000)
    page.keyboard.press("ArrowDown")
    wait_selected(page, ".[].owner.login")
    return took


def search_row_fits(page, browser, query: str) -> None:
    """The search input is at least 120 px wide and shows ``query``; nothing in the view
    scrolls sideways."""
    width, value = browser.locator(".jqm-search").evaluate(
        "e => [e.getBoundingClientRect().width, e.value]")
    assert width >= 120 and value == query, (width, value)
    sideways = browser.locator(".jqm-root, .jqm-tree, .jqm-side, .jqm-matches, "
                               ".jp-OutputArea-output").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className)")
    assert sideways == [], sideways


def contrast(page, css: str) -> float:
    """The WCAG contrast ratio of an element's text on its own background."""
    return page.evaluate("""css => {
        const e = document.querySelector(css), s = getComputedStyle(e);
        const lum = c => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number)
            .map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92
                                                     : ((v + 0.055) / 1.055) ** 2.4);
            return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);
        return (a + 0.05) / (b + 0.05);
    }""", css)


def set_theme(page, name: str) -> None:
    """Settings > Theme > ``name``, and wait until the page has it."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
    page.locator(".lm-Menu-itemLabel", has_text=name).first.click()
    light = "Light" in name
    # the theme's stylesheet applied, not only its name on <body> (a "dark" shot taken 0.5 s
    # after the name changed was light): the notebook's own background turned
    page.wait_for_function("""l => document.body.dataset.jpThemeLight === String(l) && (() => {
        const [r, g, b] = getComputedStyle(document.querySelector('.jp-Notebook'))
            .backgroundColor.match(/[\\d.]+/g).map(Number);
        return (r + g + b > 384) === l; })()""", arg=light)


def note_log(browser) -> None:
    """Log each text of ``browser``'s note with the page's clock, in ``window.notes``."""
    browser.locator(".jqm-note").evaluate("""note => { window.notes = [];
        if (note.logged) return;
        note.logged = new MutationObserver(() => window.notes.push(
            [performance.now(), note.innerText]));
        note.logged.observe(note, {childList: true, subtree: true, characterData: true});
        }""")


def shot_progress(page, browser, name: str) -> str | None:
    """A screenshot of ``browser`` while its note says how far a search got; the note
    shown, or None when the note moved on to its end while the shot was taken."""
    # a progress note ("searching… no match yet; 3 of 59 paths read, ..."), not the bare
    # "searching…" shown the moment the search starts
    browser.locator(".jqm-note", has_text=re.compile("^searching… .* read")).wait_for(
        timeout=30_000)
    before = page.evaluate("performance.now()")
    shown = browser.locator(".jqm-note").inner_text()
    shot(browser, name)
    after = page.evaluate("performance.now()")
    moved = [text for at, text in page.evaluate("window.notes") if before <= at <= after]
    if shown.startswith("searching") and all(t.startswith("searching") for t in moved):
        return shown  # the note said "searching" all the while the shot was taken
    return None


def within(browser, script: str, arg=None, timeout: int = 60_000) -> None:
    """Wait until ``script`` (a function of the browser's root element and ``arg``) holds."""
    browser.locator(".jqm-root").evaluate(
        """(root, [script, arg, timeout]) => new Promise((ok, fail) => {
            const test = eval(script), end = performance.now() + timeout;
            const look = () => test(root, arg) ? ok() : performance.now() > end
                ? fail(new Error('timed out: ' + script)) : setTimeout(look, 100);
            look(); })""", [script, arg, timeout])


def search_late_value(page, browser, name: str) -> tuple[str, str]:
    """Search the value only the last record's order holds, in the last column read: the
    first Enter goes on by itself to it, the note saying how far it got meanwhile (a
    screenshot of that; the search asked again in other letter cases when the shot came
    too late), then the hit chosen and its details. The query and the progress seen."""
    for query in (LATE, LATE.lower(), LATE.upper()):
        note_log(browser)
        browser.locator(".jqm-tree").focus()
        page.keyboard.press("/")  # the old query selected: typing replaces it
        page.keyboard.type(query)
        page.keyboard.press("Enter")
        search_row_fits(page, browser, query)  # during the search
        progress = shot_progress(page, browser, f"{name}-searching")
        # its end (the search goes on by itself: a whole pass takes 0.5 s on a quiet host,
        # but CI's loaded runs went past the minute the product waits; speed is
        # bench/browse.py's to judge, not this test's)
        try:
            within(browser, "r => /^\\d+ match/.test(r.querySelector('.jqm-note').innerText)",
                   timeout=300_000)
        except Exception as exc:  # Playwright's timeout: say what the note said then
            raise AssertionError(browser.locator(".jqm-note").inner_text()) from exc
        if progress:
            break
    else:
        raise AssertionError("no screenshot while the search was under way")
    assert re.fullmatch(r"searching… no match yet; \d+ of \d+ paths read, now at "
                        r"\.\S*", progress), progress
    assert LATE_POINTER in browser.locator(".jqm-matches").inner_text()
    notes = [text for _, text in page.evaluate("window.notes")]
    assert notes[-1] == "1 match in keys and values", notes
    assert not [n for n in notes if n.startswith("0 match")], notes  # never "not found"
    read = [int(n.split(" of ")[0].split()[-1]) for n in notes
            if n.startswith("searching") and " of " in n]
    assert read == sorted(read) and read[-1] > 0, notes  # the columns read, going on
    # the hit chosen by itself: its row shows the value found, the details its own paths
    within(browser, "(r, v) => r.querySelector('.jqm-row.jqm-selected .jqm-sample')"
                    "?.innerText === v", json.dumps(LATE))
    within(browser, "(r, v) => r.querySelector('.jqm-details tr')?.innerText.includes(v)",
           LATE)
    details = browser.locator(".jqm-details").inner_text()
    assert LATE_PATH in details and LATE_POINTER in details, details
    search_row_fits(page, browser, query)  # after it
    shot(browser, f"{name}-late-hit")
    return query, progress


def search_again(page, browser, name: str) -> None:
    """"/" then typing replaces the old query; the details follow the new search's hit (a
    value that many records hold: the first pass stops at its first slice with them)."""
    browser.locator(".jqm-tree").focus()
    page.keyboard.press("/")  # the old query selected: typing replaces it
    page.keyboard.type("Kobe")
    search_row_fits(page, browser, "Kobe")
    page.keyboard.press("Enter")
    within(browser, "r => r.querySelector('.jqm-details tr')?.innerText.includes('Kobe')")
    first = browser.locator(".jqm-details tr").first.inner_text()
    assert first.startswith("this match") and LATE not in first, first  # the new hit
    assert re.search(r"\d[\d,]* matches", browser.locator(".jqm-note").inner_text())
    search_row_fits(page, browser, "Kobe")
    shot(browser, f"{name}-second-search")


def test_the_search_row_at_1000_px_on_220k_records_and_a_55mb_file(lab, page):
    """A 1,000 px window, a variable of 220,000 records and the same records in a 55 MB
    file: before any key, the search row fits; the first Enter finds a value only the
    last record holds (the note says how far it got meanwhile: looked at in a
    screenshot), the input keeps its width and its query, "/" then typing replaces the
    query, the details follow the hit, nothing scrolls sideways, the selected row is
    readable (contrast computed in both themes), the match rows are in the Tab order, the
    jq box on a hit of the variable and --browse of the file right after %jq are timed
    (printed: their targets are bench/browse.py's), Shift+Enter in the tree runs the
    cell."""
    page.set_viewport_size({"width": 1000, "height": 1000})
    try:
        run_all(page, lab, SEARCH, 3)
        variable = cell(page, "%inspect customers --browse")
        variable.locator(".jqm-row[data-id='.[].orders']").wait_for(timeout=300_000)
        file_cell = cell(page, "started = time.perf_counter()")
        file_cell.locator(".jqm-row[data-id='.[].orders']").wait_for(timeout=300_000)
        wait_idle(page)
        shown = page.locator(OUTPUTS).first.inner_text()
        print(shown)
        assert "customers: 220,000 records" in shown, shown
        mb = float(re.search(r"([\d.]+) MB as JSON", shown).group(1))
        assert 50 < mb < 60, shown  # the 51 MB file and 55 MB variable
        shot(variable, "1000px-fresh")  # LOOK before any key
        search_row_fits(page, variable, "")
        late = search_late_value(page, variable, "1000px-variable")

        ratio = contrast(page, ".jqm-row.jqm-selected")
        assert ratio >= 4.5, ratio
        set_theme(page, "JupyterLab Dark")  # the selected row in the dark theme too
        try:
            dark = contrast(page, ".jqm-row.jqm-selected")
            shot(variable, "1000px-dark-theme")
        finally:
            set_theme(page, "JupyterLab Light")
        assert dark >= 4.5, dark
        print(f"selected row contrast: light {ratio:.1f}:1, dark {dark:.1f}:1")

        search_again(page, variable, "1000px-variable")
        # the match rows are in the Tab order: from the input, Tab passes the tree and the
        # three copy buttons (the variable has a name: a %jq line), then the first match
        variable.locator(".jqm-search").focus()
        stops = []
        for _ in range(5):
            page.keyboard.press("Tab")
            stops.append(page.evaluate("() => document.activeElement.className"))
        assert stops == ["jqm-tree", "jqm-copy-jq", "jqm-copy-pointer", "jqm-copy-line",
                         "jqm-match jqm-current"], stops
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # chooses the second match
        within(variable, "r => r.querySelectorAll('.jqm-match')[1]"
                         ".classList.contains('jqm-current')")
        shot(variable, "1000px-match-by-tab")

        # the jq box on the chosen hit of the 55 MB variable: the hit's value alone
        hit = variable.locator(".jqm-details tr").first.inner_text()
        variable.locator(".jqm-jq").focus()
        page.keyboard.type("ascii_downcase")
        started = time.monotonic()
        page.keyboard.press("Enter")
        within(variable, "r => r.querySelector('.jqm-output').innerText.includes('kobe')")
        jq_box = time.monotonic() - started
        assert "results" not in variable.locator(".jqm-output").inner_text()  # one value
        assert "Kobe" in hit, hit
        search_row_fits(page, variable, "Kobe")
        shot(variable, "1000px-variable-jq-box")

        # the file, browsed right after %jq read it: the same search row
        timings = file_cell.locator(".jp-OutputArea").inner_text()
        print(timings)
        browse = float(re.search(r"--browse right after: ([\d.]+) s", timings).group(1))
        shot(file_cell, "1000px-file-fresh")
        search_row_fits(page, file_cell, "")
        file_late = search_late_value(page, file_cell, "1000px-file")
        search_again(page, file_cell, "1000px-file")
        print(f"searched and seen under way: {late}, {file_late}")
        print(f"jq box on a hit of the 55 MB variable {jq_box:.2f} s; %inspect FILE --browse"
              f" right after %jq {browse:.2f} s")
        # answered at all; the targets (1 s, 2 s) are measured in bench/browse.py
        assert jq_box < 30 and browse < 60, (jq_box, browse)

        # Shift+Enter in the tree runs the cell, as anywhere in a notebook
        prompt = variable.locator(".jp-InputPrompt").inner_text()
        variable.locator(".jqm-tree").focus()
        page.keyboard.press("Shift+Enter")
        page.wait_for_function(
            "p => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
            ".jp-CodeCell')[1].querySelector('.jp-InputPrompt').innerText !== p",
            arg=prompt, timeout=10_000)
        wait_idle(page)
    finally:
        page.set_viewport_size({"width": 1400, "height": 1400})


def test_first_contact_with_a_tree_of_200k_records(lab, page):
    """A tree of 200,000 records drawn before any key, every unmodified key kept, a value
    at depth 2 found and its own path copied, Escape from the jq box, a restarted kernel
    said and the snapshot shown."""
    timings = {}
    started = run_all(page, lab, FIRST, 2)
    browser = cell(page, "%inspect recs --browse")
    first_level = browser.locator(".jqm-row[data-id='.[].owner']")  # the shape, open
    first_level.wait_for(timeout=180_000)  # LOOK before any key: the first level is drawn
    timings["tree appears (200k records, from Run All)"] = time.monotonic() - started
    assert browser.locator(".jqm-row").count() >= 2
    assert browser.locator(".jqm-title").inner_text() == "recs"
    shot(browser, "first-contact-fresh-tree")
    wait_idle(page)

    # every unmodified letter and digit stays in the tree (no cell moved, added, changed)
    tree = browser.locator(".jqm-tree")
    tree.focus()
    before = notebook_state(page)
    for key in [*"abcdefghijklmnopqrstuvwxyz0123456789",
                *(f"Shift+Key{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")]:
        page.keyboard.press(key)
    page.wait_for_timeout(500)
    assert notebook_state(page) == before
    assert focused(page, ".jqm-tree")
    page.wait_for_function("() => document.querySelector('.jqm-toast').innerText === ''",
                           timeout=6_000)  # the "copied" toast of c and p clears

    timings["search (depth 2, 200k records)"] = search_deep(page, browser)
    assert focused(page, ".jqm-tree")
    # a screen reader follows the active row: the id the tree names is its selected row,
    # read in one look (a redraw renumbers the rows, so an id read earlier may be gone)
    page.wait_for_function("""t => {
        const a = document.getElementById(t.getAttribute('aria-activedescendant'));
        return a !== null && a.getAttribute('aria-selected') === 'true'; }""",
                           arg=tree.element_handle(), timeout=10_000)
    page.keyboard.press("c")
    page.wait_for_function("p => document.querySelector('.jqm-toast').innerText"
                           " === 'copied ' + p", arg=f".[{DEEP}].owner.login")
    assert page.evaluate("navigator.clipboard.readText()") == f".[{DEEP}].owner.login"
    page.keyboard.press("p")
    page.wait_for_function("p => document.querySelector('.jqm-toast').innerText"
                           " === 'copied ' + p", arg=f"/{DEEP}/owner/login")
    page.keyboard.press("n")  # the one hit again
    wait_selected(page, ".[].owner.login")
    shot(browser, "first-contact-search-hit")
    browser.locator(".jqm-jq").focus()
    page.keyboard.press("Escape")  # the jq box gives the keys back to the tree
    assert focused(page, ".jqm-tree")

    # a restarted kernel: the tree says so at the next key and shows its snapshot
    page.locator(".lm-MenuBar-itemLabel", has_text="Kernel").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Restart Kernel…").first.click()
    page.locator(".jp-Dialog-button", has_text="Restart").click()
    wait_idle(page)
    live = browser.locator(".jqm-tree")
    if live.count():  # the view outlived its model: it must find out by itself
        live.focus()
        page.wait_for_timeout(2_100)  # past the view's 2 s between pings
        page.keyboard.press("ArrowDown")
        browser.locator(".jqm-gone", has_text="kernel does not answer").wait_for(
            timeout=10_000)
    snapshot = browser.locator(".jqmagic-snapshot")
    snapshot.wait_for(timeout=10_000)
    assert "owner" in snapshot.inner_text() and "login" in snapshot.inner_text()
    shot(browser, "first-contact-kernel-gone")
    for name, seconds in timings.items():
        print(f"{name}: {seconds:.2f} s")
    assert timings["tree appears (200k records, from Run All)"] < 60
    assert timings["search (depth 2, 200k records)"] < 5


def test_a_51mb_python_variable_queried_and_browsed(lab, page):
    """%jq on a 51 MB Python variable: the first query under 5 s, later ones under 1 s;
    the tree's jq box on a search hit of it."""
    run_all(page, lab, BIG, 3)
    browser = cell(page, "%inspect recs --browse")
    browser.locator(".jqm-row[data-id='.[]']").wait_for(timeout=180_000)
    big = cell(page, "started = time.perf_counter()")
    big.locator(".jp-OutputArea-output").first.wait_for(timeout=300_000)
    wait_idle(page)
    shown = big.locator(".jp-OutputArea").inner_text()
    print(shown)
    assert "big variable: first" in shown, shown
    took = [float(w) for w in shown.split("big variable: first ")[1].replace(",", "").split()
            if w.replace(".", "").isdigit()][:3]
    search_deep(page, browser)
    browser.locator(".jqm-jq").focus()
    page.keyboard.type("ascii_upcase")
    started = time.monotonic()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.jqm-output').innerText"
                           ".includes('NEEDLE-DEEP')", timeout=60_000)
    jq_box = time.monotonic() - started
    assert "results" not in browser.locator(".jqm-output").inner_text()  # one value
    shot(browser, "big-variable-jq-box")
    print(f"big variable %jq: first {took[0]:.2f} s, later {took[1]:.2f} s, {took[2]:.2f} s;"
          f" jq box on a hit {jq_box:.2f} s")
    assert "rob/project-0" in shown and "needle-deep" in shown
    # answered, not a TIMEOUT (the old failure); the speed itself is printed and measured,
    # not asserted (issue 32's goal: under 5 s, then under 1 s; measured 1.56 s, 0.56 s)
    assert max(took) < 30, took


HAND = "by-hand.ipynb"  # written by the test: what a person did after the tour, in order
HAND_CELLS = [
    "%load_ext jqmagic\nfrom jqmagic import samples\npaths = samples.write('sample-data')",
    "%inspect sample-data/repos.json --browse",
    "%inspect sample-data/events.jsonl --browse",
    "%jq -n '[range(200000) | {a: ., b: [., .]}]' --to json",
    "%jq 'def f: f; f' sample-data/repos.json --timeout 1",  # Run All stops here
    '%jq "select(.language == "Python") | .full_name" sample-data/repos.json',
    "%jq '.[0].full_name' sample-data/repos.json",
]


def run_cell_at(page, index: int, has_text: str) -> None:
    """Select code cell ``index`` by its prompt, Shift+Enter, wait for ``has_text``."""
    code = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell").nth(index)
    code.locator(".jp-InputPrompt").click()
    page.keyboard.press("Shift+Enter")
    code.locator(".jp-OutputArea", has_text=has_text).wait_for(timeout=60_000)


def test_by_hand_after_the_tour(lab, page):
    """What a person met after the tour, mouse first: closing a node above the selected
    one selects it (the details were left on a hidden node); the jq box's preview names
    the match it ran on and follows n to the next match (the first match's answer stayed);
    "copy %jq line" gives a line that reads it; c on a match in JSON Lines copies its node's
    path (it copied nothing); --to json over a value past the viewer says its bound line
    once (twice); a runaway
    stopped by --timeout leaves the kernel answering; a program whose double quotes its
    own strings cut is told so."""
    notebook_of(lab["root"] / HAND, HAND_CELLS)
    run_all(page, lab, HAND, len(HAND_CELLS))
    runaway = cell(page, "%jq 'def f: f; f'")
    runaway.locator(".jp-OutputArea", has_text="TIMEOUT").wait_for(timeout=120_000)
    wait_idle(page)

    browser = cell(page, "%inspect sample-data/repos.json --browse")
    browser.locator(".jqm-row[data-id='.[].owner.login'] .jqm-name").click()
    wait_selected(page, ".[].owner.login")
    browser.locator(".jqm-row[data-id='.'] .jqm-twisty").click()  # the root's caret
    wait_selected(page, ".")
    assert browser.locator(".jqm-row").count() == 1
    page.wait_for_function("() => /jq path\\s+\\.\\s/.test(document.querySelector("
                           "'.jqm-details').innerText + ' ')")
    shot(browser, "by-hand-root-closed")
    browser.locator(".jqm-row[data-id='.'] .jqm-twisty").click()

    browser.locator(".jqm-search").click()
    page.keyboard.type("linus")
    page.keyboard.press("Enter")
    wait_selected(page, ".[].full_name")
    browser.locator(".jqm-jq").click()
    page.keyboard.type("ascii_upcase")
    status = browser.locator(".jqm-status")
    status.filter(has_text="on .[3].full_name").wait_for(timeout=30_000)
    browser.locator(".jqm-tree").focus()
    page.keyboard.press("n")  # the next match, on the same node
    status.filter(has_text="on .[6].full_name").wait_for(timeout=30_000)
    assert browser.locator(".jqm-output").inner_text().strip() == '"LINUS/PROJECT-6"'
    shot(browser, "by-hand-preview-on-the-next-match")
    browser.locator(".jqm-copy-line").click()
    browser.locator(".jqm-toast", has_text="copied %jq").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == \
        "%jq '.[6].full_name' sample-data/repos.json"

    lines = cell(page, "%inspect sample-data/events.jsonl --browse")
    lines.locator(".jqm-search").click()
    page.keyboard.type("error")
    page.keyboard.press("Enter")
    lines.locator(".jqm-match").first.wait_for()
    lines.locator(".jqm-tree").focus()
    page.keyboard.press("c")
    lines.locator(".jqm-toast", has_text="copied .level").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == ".level"
    shot(lines, "by-hand-json-lines-match-copied")

    viewer = cell(page, "%jq -n '[range(200000)")
    assert viewer.locator(".jqmagic-note").count() == 1
    assert viewer.locator(".jp-OutputArea").inner_text().count("Truncated.") == 1

    run_cell_at(page, 5, "single quotes")  # the kernel answered after the runaway
    said = cell(page, '%jq "select(').locator(".jp-OutputArea").inner_text()
    assert """%jq 'select(.language == "Python") | .full_name' sample-data""" in said
    assert "define it first" not in said
    run_cell_at(page, 6, "rob/project-0")
