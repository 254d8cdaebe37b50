"""Screenshots of the notebook face in a real JupyterLab in Chromium: the tree, its search,
the jq box, Tab in a ``%jq`` cell and ``--explain``, in the light and the dark theme, at
1000 and 1400 px wide: ``.venv/bin/python scripts/screenshots.py [--out build/screens]``.

Each shot is looked at by a person; the script measures what a look would catch and
prints it as problems (exit 1 when any): the theme not applied, the key legend wrapped,
the side pane too narrow to read, a part of the tree that scrolls sideways. It starts
JupyterLab as the browser tests do (``tests/test_e2e_browser.py``: the e2e extra and
Debian's Chromium). Run it under ``flock /tmp/jqmagic-heavy.lock`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_e2e_browser import (  # noqa: E402 (the checkout's tests, on the path above)
    CHROMIUM,
    CHROMIUM_ARGS,
    cell,
    run_all,
    running_lab,
    wait_idle,
    wait_selected,
)

NOTEBOOK = "screens.ipynb"
EXPLAINED = ('.[] | select(.stargazers_count > 2000) | '
             '{name: .full_name, license: ((.license.spdx_id)? // "none")}')
CELLS = ["%load_ext jqmagic\nfrom jqmagic import samples\nrepos = samples.repos(300)",
         "%inspect repos --browse",
         f"%jq '{EXPLAINED}' repos --explain",
         ""]
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
WIDTHS = (1000, 1400)
SIDE_MIN_PX = 250  # a path such as .[219999].orders[0].shipping.city in two lines, not five


def write_notebook(root: Path) -> None:
    import nbformat

    kernel = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                             "name": "python3"}}
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(c) for c in CELLS], metadata=kernel),
        root / NOTEBOOK)


def set_theme(lab: dict, theme: str) -> None:
    """The theme JupyterLab reads from its settings at the next page load."""
    folder = lab["root"] / ".settings" / "@jupyterlab" / "apputils-extension"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "themes.jupyterlab-settings").write_text(json.dumps({"theme": theme}))


# What a look at a shot would catch, measured in the page: the theme (the notebook's
# background and the widget's text), the legend's lines, the side pane's width, sideways
# scrolling.
MEASURE = """root => {
    const luminance = css => {
        const [r, g, b] = css.match(/[\\d.]+/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    const legend = root.querySelector('.jqm-keys');
    const kbd = legend.querySelector('kbd').getBoundingClientRect().height;
    const side = root.querySelector('.jqm-side'), tree = root.querySelector('.jqm-tree');
    const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
    return {
        themeLight: document.body.dataset.jpThemeLight === 'true',
        pageLuminance: luminance(getComputedStyle(panel).backgroundColor),
        textLuminance: luminance(getComputedStyle(root).color),
        legendLines: Math.round(legend.getBoundingClientRect().height / (kbd * 1.15)),
        widgetPx: Math.round(root.getBoundingClientRect().width),
        sidePx: Math.round(side.getBoundingClientRect().width),
        treePx: Math.round(tree.getBoundingClientRect().width),
        sideways: [tree, side].filter(e => e.scrollWidth > e.clientWidth + 1)
            .map(e => e.className),
    };
}"""


def problems(theme: str, width: int, seen: dict) -> list[str]:
    """What is wrong in the measurements of one theme and width, in words."""
    found = []
    dark = theme == "dark"
    if seen["themeLight"] == dark or (seen["pageLuminance"] > 0.5) == dark:
        found.append(f"the page is not in the {theme} theme: {seen}")
    if (seen["textLuminance"] > 0.5) != dark:
        found.append(f"the widget's text does not follow the {theme} theme: {seen}")
    if seen["legendLines"] > 1:
        found.append(f"the key legend wraps to {seen['legendLines']} lines")
    if seen["sidePx"] < SIDE_MIN_PX:
        found.append(f"the side pane is {seen['sidePx']} px wide (under {SIDE_MIN_PX})")
    if seen["sideways"]:
        found.append(f"scrolls sideways: {seen['sideways']}")
    return [f"{theme} {width} px: {p}" for p in found]


def shoot(page, lab: dict, out: Path, theme: str, width: int) -> dict:
    """The five shots of one theme and width into ``out``; the measurements."""
    set_theme(lab, THEMES[theme])
    page.set_viewport_size({"width": width, "height": 1000})
    run_all(page, lab, NOTEBOOK, len(CELLS))
    name = f"{theme}-{width}"
    browser = cell(page, "%inspect repos --browse")
    browser.locator(".jqm-row[data-id='.[].full_name']").wait_for(timeout=120_000)
    explained = cell(page, "%jq '.[] | select")
    explained.locator(".jp-OutputArea-output").first.wait_for(timeout=120_000)
    wait_idle(page)
    page.wait_for_function("l => document.body.dataset.jpThemeLight === l",
                           arg="true" if theme == "light" else "false")
    page.wait_for_timeout(500)  # the theme's stylesheet applied

    # the tree: the owner's keys opened by keyboard, a leaf selected
    tree = browser.locator(".jqm-tree")
    tree.focus()
    for _ in range(4):
        page.keyboard.press("ArrowDown")
    wait_selected(page, ".[].owner")
    login = browser.locator(".jqm-row[data-id='.[].owner.login']")
    if not login.count():
        page.keyboard.press("ArrowRight")  # opens it
    login.click()
    wait_selected(page, ".[].owner.login")
    page.wait_for_function("() => document.querySelector('.jqm-details').innerText"
                           ".includes('.[].owner.login')")
    seen = browser.locator(".jqm-root").evaluate(MEASURE)
    shot(browser, out / f"tree-{name}.png")

    # the search: a value found, its own paths beside the tree
    page.keyboard.press("/")
    page.keyboard.type("margaret/project-5")
    page.keyboard.press("Enter")
    page.wait_for_function("() => /^\\d+ match/.test(document.querySelector('.jqm-note')"
                           ".innerText)", timeout=60_000)
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => document.querySelector('.jqm-details').innerText"
                           ".includes('/5/full_name')")
    shot(browser, out / f"search-{name}.png")

    # the jq box on the root, the search cleared: offers open after ".[0].", then one
    # taken by keyboard and its preview
    search = browser.locator(".jqm-search")
    search.fill("")
    search.press("Enter")
    browser.locator(".jqm-row[data-id='.[].owner']").wait_for()
    browser.locator(".jqm-row[data-id='.']").click()
    wait_selected(page, ".")
    box = browser.locator(".jqm-jq")
    box.focus()
    page.keyboard.type(".[0].", delay=40)
    browser.locator(".jqm-offers").wait_for(state="visible", timeout=30_000)
    browser.locator(".jqm-offer", has_text=".full_name").wait_for(timeout=30_000)
    shot(browser, out / f"jqbox-offers-{name}.png")
    page.keyboard.type("ow", delay=40)
    page.wait_for_function(  # the offers of ".[0].ow" (not a list drawn for an earlier key)
        "() => [...document.querySelectorAll('.jqm-offers [role=option] .jqm-offer-text')]"
        ".map(o => o.innerText).join() === '.owner'", timeout=30_000)
    page.keyboard.press("Tab")  # takes the first offer
    page.wait_for_function("() => document.querySelector('.jqm-jq').value === '.[0].owner'",
                           timeout=30_000)
    page.wait_for_function("() => document.querySelector('.jqm-status').innerText"
                           ".startsWith('1 result')", timeout=60_000)
    shot(browser, out / f"jqbox-preview-{name}.png")
    page.keyboard.press("Escape")

    # Tab in a %jq cell: JupyterLab's completer with the keys and their types
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
    empty = cells.nth(len(CELLS) - 1)
    empty.evaluate("e => e.scrollIntoView({block: 'center'})")  # room for the menu below
    empty.locator(".cm-content").click()
    page.keyboard.type("%jq '.[0].' repos", delay=20)
    for _ in range(len("' repos")):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Tab")
    completer = page.locator(".jp-Completer")
    completer.wait_for(state="visible", timeout=30_000)
    completer.locator(".jp-Completer-item", has_text=".full_name").wait_for(timeout=30_000)
    boxes = [empty.bounding_box(), completer.bounding_box()]  # the menu opens above or below
    left, top = max(0, boxes[0]["x"] - 70), max(0, min(b["y"] for b in boxes) - 10)
    bottom = max(b["y"] + b["height"] for b in boxes) + 10
    page.screenshot(path=str(out / f"tab-{name}.png"), clip={
        "x": left, "y": top, "width": min(width - left, boxes[0]["width"] + 80),
        "height": bottom - top})
    page.keyboard.press("Escape")

    # --explain: the stages of a program, each with its counts; the filter's and the
    # object's stages opened, with their samples
    stages = explained.locator(".jqx > .row > details.st > summary")
    for index in (1, 2):
        stages.nth(index).click()
    shot(explained.locator(".jp-OutputArea"), out / f"explain-{name}.png")
    return seen


def shot(locator, path: Path) -> None:
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path))


def make_all(page, lab: dict, out: Path, sets: list[tuple[str, int]]) -> dict:
    """The shots of each (theme, width) of ``sets`` into ``out``; the measurements and
    the problems they show."""
    out.mkdir(parents=True, exist_ok=True)
    write_notebook(lab["root"])
    page.on("dialog", lambda dialog: dialog.accept())  # leaving a notebook with typed text
    report: dict = {"shots": {}, "problems": []}
    for theme, width in sets:
        started = time.monotonic()
        seen = shoot(page, lab, out, theme, width)
        report["shots"][f"{theme}-{width}"] = {**seen,
                                               "seconds": round(time.monotonic() - started)}
        report["problems"] += problems(theme, width, seen)
    set_theme(lab, THEMES["light"])
    (out / "report.json").write_text(json.dumps(report, indent=1))
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "screens",
                        help="where the PNGs and report.json go (default: build/screens)")
    parser.add_argument("--only", nargs="*", metavar="THEME-WIDTH",
                        help="some of the shots' sets, e.g. dark-1000 (default: all four)")
    options = parser.parse_args()
    sets = [(t, w) for t in THEMES for w in WIDTHS
            if not options.only or f"{t}-{w}" in options.only]
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="jqmagic-screens-") as scratch, \
            running_lab(Path(scratch)) as lab, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.set_default_timeout(60_000)
        try:
            report = make_all(page, lab, options.out, sets)
        except Exception:
            page.screenshot(path=str(options.out / "failed.png"))  # where it stood
            raise
        finally:
            browser.close()
    for name, seen in report["shots"].items():
        print(f"{name}: {seen}")
    print("\n".join(report["problems"]) or "no problems measured")
    print(f"shots in {options.out}")
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
