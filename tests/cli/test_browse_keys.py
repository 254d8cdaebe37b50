"""`jqmagic browse` by keyboard and never stale (issue 56): keys typed faster than the
previews come never draw an earlier program's answer; Tab reaches the tree while offers
show; a legend at 100x30; document text shown, never obeyed."""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
import warnings

import pytest

pytest.importorskip("textual", reason="jqmagic browse needs the tui extra (Textual)")

from jqmagic.cli import browse, browsetext  # noqa: E402
from jqmagic.cli.browse import browser  # noqa: E402

SHOP = {"export": {"number": "E-1", "lines": [{"number": 1, "sku": "a"}]},
        "customers": [{"id": 1, "number": "C-1"}]}


def text_of(app, name: str) -> str:
    return str(app.query_one(f"#{name}").render())


async def _until(pilot, check, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await pilot.pause(0.05)


def test_keys_faster_than_answers_never_draw_an_earlier_program(tmp_path, monkeypatch):
    path = tmp_path / "shop.json"
    path.write_text(json.dumps(SHOP))
    real = browsetext.preview_text
    slow_first = threading.Event()

    def slow_preview(program: str, where: str):
        if not slow_first.is_set():  # the first answers come long after the next keys
            time.sleep(0.6)
        return real(program, where)

    monkeypatch.setattr(browse, "preview_text", slow_preview)
    app = browser(str(path), "")
    drawn: list[tuple[str, str]] = []  # (the program answered, the box's text then)
    busy: list[str] = []

    async def main():
        async with app.run_test() as pilot:
            show = app._show_preview

            def recorded(answer):
                before = app.shown_program
                show(answer)
                if app.shown_program is not before:
                    drawn.append((answer["program"], app.program))

            app._show_preview = recorded
            for key in ".export.number":  # each key before the last answer came
                await pilot.press(key)
                await pilot.pause(0.15)
                busy.append(text_of(app, "status"))
            slow_first.set()
            await _until(pilot, lambda: app.shown_program == ".export.number")
            assert text_of(app, "preview") == '"E-1"'
            # an error replaces the answer at once, then a good program replaces the error
            await pilot.press(*" | .[")
            await _until(pilot, lambda: app.shown_program == ".export.number | .[")
            assert "INVALID_QUERY" in text_of(app, "preview")
            assert '"E-1"' not in text_of(app, "preview")
            await pilot.press("backspace", "backspace", "backspace", "backspace")
            await _until(pilot, lambda: app.shown_program == ".export.number ")  # (its space)
            assert text_of(app, "preview") == '"E-1"'

    asyncio.run(main())
    assert drawn, "no answer was drawn"
    assert all(program == box for program, box in drawn), drawn
    assert any(line.startswith("running ") for line in busy), busy


def test_tab_slash_enter_c_with_offers_open_copies_the_first_number_key(tmp_path):
    path = tmp_path / "shop.json"
    path.write_text(json.dumps(SHOP))
    app = browser(str(path), "")

    async def main():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*".expo")
            await _until(pilot, lambda: app._offering())
            assert app._offering()  # offers open when the sequence starts
            await pilot.press("tab")
            assert app.focused is app.query_one("#shape")
            assert app.program == ".expo"  # nothing taken
            await pilot.press("slash", *"number", "enter")
            await _until(pilot, lambda: text_of(app, "status").startswith("Match 1 of"))
            await pilot.press("c")
            assert app.clipboard == ".export.number", text_of(app, "status")
            assert app.program == ".expo"  # no key landed in the program
            footer = app.screen.query_one("Footer")
            legend = " ".join(str(w.render()) for w in footer.query("FooterKey"))
            for what in ("tree", "copy path", "search", "next"):
                assert what in legend, legend
            await pilot.press("tab")
            assert app.focused is app.query_one("#jq")
            await pilot.press("escape")  # the box has no offers now...
            await pilot.pause(0.1)

    asyncio.run(main())
    assert app.return_code in (0, None)  # ...so Escape quit


def test_escape_closes_offers_first_then_quits(tmp_path):
    path = tmp_path / "shop.json"
    path.write_text(json.dumps(SHOP))
    app = browser(str(path), "")

    async def main():
        async with app.run_test() as pilot:
            await pilot.press(*".cust")
            await _until(pilot, lambda: app._offering())
            await pilot.press("escape")
            assert not app._offering() and app.is_running
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert not app.is_running

    asyncio.run(main())


def test_document_text_is_shown_never_obeyed(tmp_path):
    evil = "\x1b]52;c;aGk=\x07[/bold]close\x9b31m"
    path = tmp_path / "evil.json"
    path.write_text(json.dumps({evil: evil}))
    app = browser(str(path), "")

    async def main():
        async with app.run_test() as pilot:
            tree = app.query_one("#shape")
            await _until(pilot, lambda: tree.root.children)
            label = str(tree.root.children[0].label)
            assert "[/bold]close" in label and "\x1b" not in label and "\x9b" not in label
            assert "\\u001b]52" in label and "\\u009b" in label
            await _until(pilot, lambda: app.shown_program == "")
            shown = text_of(app, "preview")
            assert "[/bold]close" in shown and "\\u009b" in shown and "\x9b" not in shown

    asyncio.run(main())


def test_the_clipboard_says_when_tmux_may_drop_osc_52(monkeypatch):
    monkeypatch.setattr(browsetext, "_tmux_clipboard", lambda: "external")
    said = browsetext.clipboard_note("The program", {"TMUX": "/tmp/tmux-0/default,1,0"})
    assert "set-clipboard on" in said and "printed on exit" in said
    monkeypatch.setattr(browsetext, "_tmux_clipboard", lambda: "on")
    assert browsetext.clipboard_note("The program", {"TMUX": "x"}) == \
        "The program sent to the clipboard (OSC 52)."
    assert "GNU screen" in browsetext.clipboard_note("The program", {"STY": "1.pts"})


def test_words():
    assert browsetext.plural(0, "result") == "no results"
    assert browsetext.plural(1, "result") == "1 result"
    assert browsetext.plural(2_000, "match", "matches") == "2,000 matches"


def test_errors_leave_out_the_parser_s_token_names():
    from jqmagic.core.errors import JqMagicError

    said = browsetext.error_words(JqMagicError(
        "INVALID_QUERY", "Invalid jq program: syntax error, unexpected end of file, "
        "expecting FORMAT or QQSTRING_START or '['", "Close every ( it opens.",
        "    .a.\n       ^"))
    assert said.splitlines() == ["Close every ( it opens.", "    .a.", "       ^",
                                 "INVALID_QUERY: Invalid jq program: syntax error, "
                                 "unexpected end of file"]


def test_an_answer_after_the_app_ended_is_dropped_quietly(tmp_path, monkeypatch):
    """A preview still running when the app ends answers into nothing: no call into the
    closed loop (it left a coroutine never awaited, a warning in whatever ran next)."""
    path = tmp_path / "shop.json"
    path.write_text(json.dumps(SHOP))
    real = browsetext.preview_text
    started, release = threading.Event(), threading.Event()

    def held_preview(program: str, where: str):
        started.set()
        release.wait(10)
        return real(program, where)

    monkeypatch.setattr(browse, "preview_text", held_preview)
    app = browser(str(path), "")
    sent: list[dict] = []

    async def main():
        async with app.run_test() as pilot:
            await pilot.press(".")
            await _until(pilot, started.is_set)
            assert started.is_set(), "the preview never started"
            show = app._later
            app._later = lambda callback, *args: (sent.append(args), show(callback, *args))

    asyncio.run(main())
    release.set()
    app.previews.wait()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gc.collect()  # a coroutine never awaited would warn here
    assert sent, "the held preview never answered"
    assert app.shown_program != "."
