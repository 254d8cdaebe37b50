"""The tour in a real browser: JupyterLab on 127.0.0.1, Debian's Chromium driven by Playwright.

Runs every cell of notebooks/01-tour.ipynb through JupyterLab's own "Run All Cells", then
checks what a person sees: a ``%jq`` result in JupyterLab's JSON viewer, and the
SchemaBrowser widget answering a click on a node with the node's JSON Pointer and jq path.
Screenshots go to build/. Needs the ``e2e`` extra and ``/usr/bin/chromium`` (``.ci/run``
installs both; ``apt-get install chromium`` on Debian).
"""

from __future__ import annotations

import importlib
import json
import os
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
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]

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
    """JupyterLab serving a copy of the tour from a scratch folder, with a token."""
    require("jupyterlab")
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(ROOT / "notebooks" / "01-tour.ipynb", root / "01-tour.ipynb")
    # every cell in the DOM (JupyterLab 4 renders only the visible ones by default), no news
    settings = root / ".settings" / "@jupyterlab"
    (settings / "notebook-extension").mkdir(parents=True)
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}')
    (settings / "apputils-extension").mkdir()
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
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
            pytest.fail(f"JupyterLab did not start:\n{output}")
        time.sleep(0.5)
    yield {"base": base, "token": token, "root": root}
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
        tab = context.new_page()
        tab.set_default_timeout(60_000)
        try:
            yield tab
        finally:
            BUILD.mkdir(exist_ok=True)
            tab.screenshot(path=str(BUILD / "e2e-last-page.png"))
            context.close()
            browser.close()


def test_tour_runs_in_jupyterlab_and_the_widget_answers_a_click(lab, page):
    started = time.monotonic()
    page.goto(f"{lab['base']}/lab/tree/01-tour.ipynb?token={lab['token']}")
    stored = json.loads((ROOT / "notebooks" / "01-tour.ipynb").read_text())
    code_cells = sum(c["cell_type"] == "code" for c in stored["cells"])
    page.wait_for_function(  # every cell rendered, and the kernel started and idle
        "n => document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell').length === n"
        " && /\\| Idle/.test(document.querySelector('.jp-StatusBar-Widget')?.closest("
        "'#jp-main-statusbar')?.innerText || '')", arg=code_cells, timeout=180_000)

    # Run > Run All Cells, as a person would
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    prompts = page.locator(".jp-NotebookPanel .jp-CodeCell .jp-InputPrompt")
    deadline = time.monotonic() + 300
    while True:
        texts = prompts.all_inner_texts()
        done = [t for t in texts if t.strip().strip("[]:").strip().isdigit()]
        if len(done) == code_cells:
            break
        assert time.monotonic() < deadline, f"cells still running: {texts}"
        time.sleep(0.5)
    ran = time.monotonic() - started

    # no cell failed, except the one that is meant to (no search key: AUTH_MISSING)
    errors = page.locator(".jp-NotebookPanel .jp-OutputArea-output[data-mime-type="
                          "'application/vnd.jupyter.stderr']").all_inner_texts()
    assert len(errors) == 1 and "AUTH_MISSING" in errors[0], errors
    assert page.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']"
                        ).count() == 0

    # a %jq result rendered by JupyterLab's JSON viewer (the collapsible tree)
    jq_cell = _cell(page, "%jq '.[0]' sample-data/repos.json")
    viewer = jq_cell.locator(".jp-RenderedJSON")
    viewer.wait_for()
    # the root is open and its children are collapsed: keys and scalars show, objects fold
    page.wait_for_function(
        "el => el.innerText.includes('rob/project-0')", arg=viewer.element_handle())
    assert "full_name" in viewer.inner_text()
    assert "login" not in viewer.inner_text()
    viewer.locator("label", has_text="owner").click()  # unfold a child, as a person would
    page.wait_for_function("el => el.innerText.includes('login')", arg=viewer.element_handle())
    viewer.scroll_into_view_if_needed()
    BUILD.mkdir(exist_ok=True)
    jq_cell.screenshot(path=str(BUILD / "e2e-jq-json-viewer.png"))

    # the SchemaBrowser: click a node, see its JSON Pointer and jq path
    browse_cell = _cell(page, "%inspect sample-data/repos.json --browse")
    tree = browse_cell.locator(".widget-select select")
    tree.wait_for()
    details = browse_cell.locator(".widget-html-content").first  # its table is replaced
    _click_row(page, tree, details, "[]", ".[]")
    _click_row(page, tree, details, "full_name", ".[].full_name")
    text = details.inner_text()
    assert "JSON Pointer\t/0/full_name\n" in text, text
    assert "jq path\t.[].full_name\n" in text, text
    assert '"rob/project-0"' in text  # samples of the node
    # and its jq box runs a filter on the selected node
    browse_cell.locator(".widget-text input").nth(1).fill("ascii_upcase")
    browse_cell.locator("button", has_text="Run").click()
    page.wait_for_function("el => el.innerText.includes('ROB/PROJECT-0')",
                           arg=browse_cell.locator(".widget-html-content").last.element_handle())
    browse_cell.scroll_into_view_if_needed()
    browse_cell.screenshot(path=str(BUILD / "e2e-schema-browser.png"))
    assert (BUILD / "e2e-schema-browser.png").stat().st_size > 10_000
    print(f"tour ran in JupyterLab in {ran:.1f} s")


def _cell(page, source_start: str):
    """The code cell whose editor text starts with ``source_start``."""
    cells = page.locator(".jp-NotebookPanel .jp-CodeCell")
    for index in range(cells.count()):
        cell = cells.nth(index)
        if cell.locator(".jp-InputArea-editor").inner_text().strip().startswith(source_start):
            return cell
    raise AssertionError(f"no cell starts with {source_start!r}")


def _click_row(page, tree, details, name: str, jq_path: str) -> None:
    """Click the tree row of node ``name`` (rows are indented labels: 'name  type'), and
    wait until the details table shows the node's ``jq_path``."""
    labels = tree.locator("option").all_inner_texts()
    matches = [i for i, label in enumerate(labels)
               if label.replace("\u00a0", " ").strip(" ▸▾").startswith(name + "  ")]
    assert len(matches) == 1, labels
    tree.locator("option").nth(matches[0]).click()
    page.wait_for_function("([el, path]) => el.innerText.includes('jq path\\t' + path + '\\n')",
                           arg=[details.element_handle(), jq_path])
