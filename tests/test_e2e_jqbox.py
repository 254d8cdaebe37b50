"""The SchemaBrowser's jq box in a real browser (JupyterLab and Chromium, as
``test_e2e_browser`` runs them, whose fixtures this reuses): offers pop up as keys come,
one is chosen by keyboard alone (ArrowDown then Enter, and Tab), the preview follows the
keys once they pause (asked once per pause, not once per key), an error shows its caret
under the box, and no key typed there reaches JupyterLab's shortcuts. Screenshots of each
step go to build/e2e-jqbox-*.png (the README's picture is one of them).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.test_e2e_browser import (  # noqa: F401 (lab and page are fixtures)
    BUILD,
    CHROMIUM,
    cell,
    focused,
    lab,
    notebook_of,
    notebook_state,
    page,
    require,
    run_all,
    shot,
    wait_idle,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"no Chromium at {CHROMIUM}: apt-get install -y chromium "
                              "(.ci/run does)"),
]

NOTEBOOK = "jq-box.ipynb"  # written by the test
CELLS = ["%load_ext jqmagic\nfrom jqmagic import samples\nrepos = samples.repos(300)",
         "%inspect repos --browse"]


def write_notebook(root) -> None:
    notebook_of(root / NOTEBOOK, CELLS)


def sent_frames(tab) -> list[str]:
    """Every frame the page sends on its kernel's websockets, kept as text as it goes
    (JSON, or the binary protocol, whose JSON parts read as text too)."""
    frames: list[str] = []

    def watch(socket) -> None:
        socket.on("framesent", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    tab.on("websocket", watch)
    return frames


def asked(frames: list[str], kind: str) -> int:
    """How many of the view's requests of ``kind`` (complete, preview) were sent."""
    return sum(f'"{kind}": {{"gen"' in frame.replace('":{', '": {') for frame in frames)


def offers(tab) -> list[str]:
    return tab.locator(".jqm-offers [role=option] .jqm-offer-text").all_inner_texts()


def wait_offers(tab, texts: list[str]) -> None:
    """Until the list shows exactly ``texts`` (the answer to the last key)."""
    tab.wait_for_function(
        "t => JSON.stringify([...document.querySelectorAll('.jqm-offers [role=option] "
        ".jqm-offer-text')].map(o => o.innerText)) === t",
        arg=json.dumps(texts, separators=(",", ":")), timeout=10_000)


def test_the_jq_box_offers_as_keys_come_and_previews_them(lab, page):  # noqa: F811
    write_notebook(lab["root"])
    frames = sent_frames(page)
    run_all(page, lab, NOTEBOOK, len(CELLS))
    browser = cell(page, "%inspect repos --browse")
    browser.locator(".jqm-row[data-id='.[].full_name']").wait_for(timeout=120_000)
    wait_idle(page)
    box = browser.locator(".jqm-jq")
    listbox = browser.locator(".jqm-offers")
    # LOOK before any key: the box says what it does, no list is open
    assert box.get_attribute("role") == "combobox"
    assert box.get_attribute("aria-expanded") == "false" and listbox.is_hidden()
    assert "Tab completes" in box.get_attribute("placeholder")
    shot(browser, "jqbox-fresh")

    box.focus()
    before = notebook_state(page)
    page.keyboard.type(".[0]", delay=40)  # the first record shows as the keys pause
    page.wait_for_function("() => document.querySelector('.jqm-output').innerText"
                           ".includes('\"full_name\": \"rob/project-0\"')", timeout=30_000)
    page.keyboard.type(".")
    listbox.wait_for(state="visible", timeout=10_000)
    assert box.get_attribute("aria-expanded") == "true"
    assert box.get_attribute("aria-controls") == listbox.get_attribute("id")
    assert listbox.get_attribute("role") == "listbox"
    texts = offers(page)
    assert texts[:3] == [".id", ".full_name", ".owner"], texts
    row = browser.locator(".jqm-offer", has_text=".full_name")
    assert row.locator(".jqm-offer-type").inner_text() == "string, in all 300"
    assert browser.locator(".jqm-offer", has_text=".license").locator(
        ".jqm-offer-type").inner_text().startswith("object")
    shot(browser, "jqbox-offers")

    # typing narrows the offers; ArrowDown chooses, Enter takes it (no run)
    page.keyboard.type("fu", delay=40)
    wait_offers(page, [".full_name"])
    page.keyboard.press("ArrowDown")
    # the option the box names is selected and is .full_name, read in one look (a list
    # redrawn by a later answer renumbers its options)
    page.wait_for_function("""b => {
        const o = document.getElementById(b.getAttribute('aria-activedescendant'));
        return o !== null && o.getAttribute('aria-selected') === 'true'
            && o.innerText.includes('.full_name'); }""", arg=box.element_handle(),
                           timeout=10_000)
    shot(browser, "jqbox-chosen")
    page.keyboard.press("Enter")
    assert box.input_value() == ".[0].full_name"
    assert listbox.is_hidden() and box.get_attribute("aria-expanded") == "false"
    # the preview follows by itself: the value and the count, no Enter pressed
    output = browser.locator(".jqm-output")
    status = browser.locator(".jqm-status")
    page.wait_for_function("() => document.querySelector('.jqm-output').innerText"
                           ".includes('rob/project-0')", timeout=30_000)
    assert status.inner_text().startswith("1 result ("), status.inner_text()
    shot(browser, "jqbox-preview")

    # an unfinished program: its error and a caret under the box; the error replaces the
    # last answer at once (never an older program's results under it)
    page.keyboard.type(" |", delay=40)
    problem = browser.locator(".jqm-problem")
    problem.wait_for(state="visible", timeout=30_000)
    assert problem.inner_text().startswith("INVALID_QUERY")
    caret = browser.locator(".jqm-caret span")
    assert caret.inner_text() == "^"
    box_left = box.bounding_box()["x"]
    assert caret.bounding_box()["x"] > box_left + 60  # under the end, not the start
    assert "rob/project-0" not in output.inner_text() and status.inner_text() == ""
    assert output.get_attribute("data-program") == ".[0].full_name |"
    shot(browser, "jqbox-error-caret")
    # after "| " the list opens only when asked (Ctrl+Space): it would hold every builtin
    assert listbox.is_hidden()
    page.keyboard.press("Control+Space")
    listbox.wait_for(state="visible", timeout=10_000)
    assert {"ascii_upcase", "map(", "select("} <= set(offers(page))
    assert problem.is_hidden()  # the unfinished program's error waits while it is open
    page.keyboard.press("Escape")
    assert listbox.is_hidden() and problem.is_visible() and focused(page, ".jqm-jq")

    # the preview follows the keys: asked once the keys pause, never once per key
    previews = asked(frames, "preview")
    completes = asked(frames, "complete")
    page.keyboard.type(" ascii_upcase", delay=30)
    page.wait_for_function("() => document.querySelector('.jqm-output').innerText"
                           ".includes('ROB/PROJECT-0')", timeout=30_000)
    assert problem.is_hidden() and caret.count() == 0
    keys = len(" ascii_upcase")
    assert asked(frames, "complete") - completes == keys
    previews = asked(frames, "preview") - previews
    assert 1 <= previews < keys // 2, frames[-3:]
    print(f"jq box: {keys} keys 30 ms apart asked {keys} offers and {previews} preview(s)")
    shot(browser, "jqbox-preview-followed")

    # Tab takes the first offer; Escape closes the list, a second gives the tree the keys
    page.keyboard.press("Control+a")
    page.keyboard.type(".[1].own", delay=40)
    listbox.wait_for(state="visible", timeout=10_000)
    listbox.get_by_text("owner").first.wait_for(timeout=30_000)  # the offers of this text
    page.keyboard.press("Tab")
    page.wait_for_function("() => document.querySelector('.jqm-jq').value === '.[1].owner'",
                           timeout=10_000)  # (a loaded host draws the taken offer late)
    assert box.input_value() == ".[1].owner" and focused(page, ".jqm-jq")
    page.wait_for_function("() => document.querySelector('.jqm-output').innerText"
                           ".includes('login')", timeout=30_000)
    page.keyboard.type(".", delay=40)
    wait_offers(page, [".login", ".type"])
    page.keyboard.press("Escape")
    assert listbox.is_hidden() and focused(page, ".jqm-jq")
    page.keyboard.press("Escape")
    assert focused(page, ".jqm-tree")
    # nothing typed in the box reached the notebook: no cell moved, added or changed
    assert notebook_state(page) == before

    # a click takes an offer too, and the box keeps the focus
    box.focus()
    page.keyboard.press("Control+a")
    page.keyboard.type(".[2].la", delay=40)
    wait_offers(page, [".language"])
    browser.locator(".jqm-offer", has_text=".language").click()
    assert box.input_value() == ".[2].language" and focused(page, ".jqm-jq")

    # Enter runs it now, into the same output: the full run keeps its payload (a preview
    # stores none)
    page.keyboard.press("Control+a")
    page.keyboard.type(".[].full_name", delay=20)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.jqm-output').innerText"
                           ".includes('The full result is in payload')", timeout=30_000)
    assert "Showing 20 of 300 results" in output.inner_text()
    shot(browser, "jqbox-enter-runs")


TAB_NOTEBOOK = "tab-in-jq.ipynb"  # written by the test: Tab in a %jq cell


def test_tab_in_a_jq_cell_offers_the_keys_of_the_data(lab, page):  # noqa: F811
    """JupyterLab's own completer, asked by Tab inside a %jq line's program, lists the
    variable's keys at that path (the README's picture of the first face)."""
    notebook_of(lab["root"] / TAB_NOTEBOOK, [CELLS[0], ""])
    run_all(page, lab, TAB_NOTEBOOK, 2)
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
    cells.nth(0).locator(".jp-InputPrompt", has_text="[1]").wait_for(timeout=60_000)
    wait_idle(page)
    editor = cells.nth(1).locator(".cm-content")
    editor.click()
    shot(cells.nth(1), "tab-in-jq-fresh")  # LOOK before any key: an empty cell
    page.keyboard.type("%jq '.[0].' repos", delay=20)
    for _ in range(len("' repos")):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Tab")
    completer = page.locator(".jp-Completer")
    completer.wait_for(state="visible", timeout=30_000)
    labels = completer.locator(".jp-Completer-item .jp-Completer-match").all_inner_texts()
    # each type on one line, in view: "string, in all 300" (a wrapped one is drawn over
    # itself in JupyterLab's fixed-height rows)
    wrapped = completer.locator(".jp-Completer-typeExtended").evaluate_all(
        "els => els.filter(t => t.scrollHeight > t.clientHeight + 1 || "
        "t.scrollWidth > t.clientWidth + 1).map(t => t.textContent)")
    assert wrapped == [], wrapped
    assert "string,\u00a0in\u00a0all\u00a0300" in completer.inner_text()
    # every key of the records (JupyterLab sorts them), none of Python's names
    assert sorted(labels) == [".created_at", ".fork", ".full_name", ".id", ".language",
                              ".license", ".owner", ".stargazers_count", ".topics"], labels
    box = cells.nth(1).bounding_box()
    page.screenshot(path=str(BUILD / "e2e-tab-in-jq.png"), clip={
        "x": box["x"], "y": max(0, box["y"] - 10), "width": box["width"],
        "height": completer.bounding_box()["y"] + completer.bounding_box()["height"] -
        box["y"] + 20})
    for _ in range(labels.index(".full_name")):  # chosen by keyboard
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    text = editor.inner_text()
    assert text.strip() == "%jq '.[0].full_name' repos", text
    page.keyboard.press("Shift+Enter")
    cells.nth(1).locator(".jp-OutputArea", has_text="rob/project-0").wait_for(timeout=30_000)
    shot(cells.nth(1), "tab-in-jq-ran")


STALE_NOTEBOOK = "stale-jq-box.ipynb"  # written by the test: keys faster than answers
SLOW = "last(range(1e6)) as $n | "  # a prefix that makes each preview take about a second

# every drawn answer, with the box's text and the selected row at that moment
WATCH_DRAWS = """() => {
    window.jqmDraws = [];
    const output = document.querySelector('.jqm-output');
    const box = document.querySelector('.jqm-jq');
    new MutationObserver(() => window.jqmDraws.push({
        program: output.dataset.program, node: output.dataset.node, box: box.value,
        selected: document.querySelector('.jqm-row.jqm-selected')?.dataset.id,
        error: document.querySelector('.jqm-problem').innerText,
    })).observe(output, {attributes: true, childList: true, subtree: true});
}"""


def test_keys_faster_than_answers_never_draw_an_earlier_program(lab, page):  # noqa: F811
    """Each preview takes about a second and keys come every 250 ms: every answer drawn
    is the box's program on the selected node at that moment; an error replaces the
    answer at once; a moved selection says which node the program ran on."""
    notebook_of(lab["root"] / STALE_NOTEBOOK, CELLS)
    run_all(page, lab, STALE_NOTEBOOK, len(CELLS))
    browser = cell(page, "%inspect repos --browse")
    browser.locator(".jqm-row[data-id='.[].full_name']").wait_for(timeout=120_000)
    wait_idle(page)
    box = browser.locator(".jqm-jq")
    output = browser.locator(".jqm-output")
    box.focus()
    page.keyboard.insert_text(SLOW + ".[0]")
    page.wait_for_function("p => document.querySelector('.jqm-output').dataset.program "
                           "=== p", arg=SLOW + ".[0]", timeout=60_000)
    page.evaluate(WATCH_DRAWS)
    page.keyboard.type(".full_name", delay=250)
    # while answers are out: the busy sign, and the older answer dimmed
    assert browser.locator(".jqm-busy").inner_text() == "running…"
    assert browser.locator(".jqm-stale").count() == 1
    final = SLOW + ".[0].full_name"
    page.wait_for_function("p => document.querySelector('.jqm-output').dataset.program "
                           "=== p", arg=final, timeout=60_000)
    assert "rob/project-0" in output.inner_text()
    shot(browser, "jqbox-newest-only")
    # an error replaces the answer at once (the caret under the new text)
    page.keyboard.type(" | (", delay=250)
    browser.locator(".jqm-problem").wait_for(state="visible", timeout=60_000)
    assert "rob/project-0" not in output.inner_text()
    for _ in range(4):
        page.keyboard.press("Backspace")
    page.wait_for_function("p => document.querySelector('.jqm-output').dataset.program "
                           "=== p && !document.querySelector('.jqm-problem').innerText",
                           arg=final, timeout=60_000)
    # the selection moves: the program runs on the new node, and the status says so
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(".login")  # (SLOW would run once per owner: past 5 s)
    browser.locator(".jqm-row[data-id='.[].owner']").click()
    page.wait_for_function("() => document.querySelector('.jqm-output').dataset.node === "
                           "'.[].owner' && document.querySelector('.jqm-output').dataset"
                           ".program === '.login'", timeout=60_000)
    assert browser.locator(".jqm-status").inner_text().endswith("on .[].owner")
    draws = page.evaluate("() => window.jqmDraws")
    answers = [d for d in draws if d["program"] is not None]
    assert len(answers) >= 3, draws
    for draw in answers:
        assert draw["program"] == draw["box"], draw
        assert draw["node"] == draw["selected"], draw
    shot(browser, "jqbox-moved-selection")


def test_the_screenshots_in_the_dark_theme_at_1000_px(lab, page):  # noqa: F811
    """scripts/screenshots.py in the narrowest and darkest of its sets: the page and the
    widget's text in the dark theme, the key legend on one line, the side pane wide
    enough to read a path, nothing scrolling sideways (the shots go to build/screens)."""
    spec = importlib.util.spec_from_file_location(
        "screenshots", Path(__file__).parents[1] / "scripts" / "screenshots.py")
    screenshots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screenshots)
    try:
        report = screenshots.make_all(page, lab, BUILD / "screens", [("dark", 1000)])
    finally:
        page.set_viewport_size({"width": 1400, "height": 1400})
    seen = report["shots"]["dark-1000"]
    assert report["problems"] == [], report
    assert seen["legendLines"] == 1 and seen["sidePx"] >= screenshots.SIDE_MIN_PX, seen
    assert not seen["themeLight"] and seen["pageLuminance"] < 0.2, seen
    assert all((BUILD / "screens" / f"{kind}-dark-1000.png").stat().st_size > 5_000
               for kind in ("tree", "search", "jqbox-offers", "jqbox-preview", "tab",
                            "explain"))
