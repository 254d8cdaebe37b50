"""`jqmagic browse`: the jq box driven headless by Textual's pilot (completion taken with
Tab, the preview following the keys, errors in the status line), and its command line."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

pytest.importorskip("textual", reason="jqmagic browse needs the tui extra (Textual)")

from jqmagic.cli.browse import browser, preview_text  # noqa: E402

KUBE = {"kind": "List", "items": [{"metadata": {"name": "a", "app-id": 1}},
                                  {"metadata": {"name": "b"}}]}


def drive(path, keys_then_checks):
    """Run the app headless; each step presses keys, waits, and hands the app over."""
    app = browser(str(path), "")

    async def main():
        async with app.run_test() as pilot:
            for keys, check in keys_then_checks:
                await pilot.press(*keys)
                for _ in range(40):  # the workers answer within 2 s
                    await pilot.pause(0.05)
                    if check(app):
                        break
                assert check(app), (keys, app.program, app.offers.texts)
            await pilot.press("escape")

    asyncio.run(main())
    return app


async def _settled(pilot, app, start: str) -> None:
    """Until the status line starts with ``start`` (a search runs in a thread)."""
    for _ in range(100):
        if text_of(app, "status").startswith(start):
            return
        await pilot.pause(0.05)


def text_of(app, name: str) -> str:
    return str(app.query_one(f"#{name}").render())


def test_complete_take_and_preview(tmp_path):
    path = tmp_path / "kube.json"
    path.write_text(json.dumps(KUBE))
    app = drive(path, [
        (list(".items[0].me"), lambda a: a.offers.texts == [".metadata"]),
        (["down", "tab"], lambda a: a.program == ".items[0].metadata"  # chosen, taken
         and '"name": "a"' in text_of(a, "preview") and a.offers.texts == []),
        (list(" | .ap"), lambda a: a.offers.texts == ['."app-id"']),
        (["down", "enter"], lambda a: text_of(a, "preview") == "1"
         and text_of(a, "status").startswith("1 result (")),
        (["ctrl+y"], lambda a: a.clipboard == '.items[0].metadata | ."app-id"'
         and "OSC 52" in text_of(a, "status")),
        # an error replaces the last answer at once, in the box's words
        (["backspace"] * 9 + list(".["), lambda a: "INVALID_QUERY" in text_of(a, "preview")
         and text_of(a, "preview").startswith("The program stops too early")
         and "fails" in text_of(a, "status")),
    ])
    assert app.program == ".items[0].metadata | .["


def test_the_preview_counts_past_what_it_shows(tmp_path, monkeypatch):
    def never():
        raise AssertionError("a preview stored a payload")

    monkeypatch.setattr("jqmagic.core.payloads.reserve", never)  # redrawn at the next key
    path = tmp_path / "n.json"
    path.write_text(json.dumps(list(range(100))))
    shown, status = preview_text(".[]", str(path))
    assert shown.splitlines()[:2] == ["0", "1"] and len(shown.splitlines()) == 20
    assert status.startswith("100 results, the first 20 shown (")
    shown, status = preview_text(".[", str(path))
    assert shown is None and "INVALID_QUERY" in status and "^" in status


def test_the_command_line_refuses_a_missing_file(tmp_path):
    done = subprocess.run([sys.executable, "-m", "jqmagic", "browse", str(tmp_path / "no.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "NOT_FOUND" in done.stderr


def test_standard_input_needs_a_terminal_for_the_keys():
    done = subprocess.run([sys.executable, "-m", "jqmagic", "browse", "-"], input='{"a": 1}',
                          capture_output=True, text=True, timeout=60, start_new_session=True)
    assert done.returncode == 1 and "no terminal is left for the keys" in done.stderr


def test_standard_input_in_a_terminal_previews_and_prints_the_program():
    """`... | jqmagic browse - .a` in a pseudo-terminal: the piped document previewed, the
    keys read from the terminal, Escape quits and prints the program."""
    import os
    import pty
    import select
    import signal
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: a pipe on stdin, the pty its controlling terminal
        read_end, write_end = os.pipe()
        os.write(write_end, b'{"a": {"b": 12345}}')
        os.close(write_end)
        os.dup2(read_end, 0)
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-m", "jqmagic", "browse", "-", ".a"])
    seen = b""

    def pump(until: bytes, seconds: float) -> bool:
        nonlocal seen
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the child closed the terminal
                    return until in seen
                if not chunk:
                    return until in seen
                seen += chunk
                if until in seen:
                    return True
        return False

    try:
        assert pump(b"12345", 30), seen[-500:]
        os.write(fd, b"\x1b")
        assert pump(b".a\r\n", 15), seen[-500:]
    finally:
        for _ in range(50):
            ended, status = os.waitpid(pid, os.WNOHANG)
            if ended:
                break
            time.sleep(0.1)
        else:  # it did not quit: end it, the assertion above says why
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0


async def shape_tree(app, pilot):
    """The browser's shape tree, once its shape is read (3 s at most)."""
    tree = app.query_one("#shape")
    for _ in range(60):
        await pilot.pause(0.05)
        if tree.root.data is not None:
            break
    return tree


def test_the_shape_tree_copies_paths_and_fills_the_box(tmp_path):
    path = tmp_path / "kube.json"
    path.write_text(json.dumps(KUBE))
    app = browser(str(path), "")

    async def main():
        async with app.run_test() as pilot:
            tree = await shape_tree(app, pilot)
            labels = [str(node.label) for node in tree.root.children]
            assert labels == ["kind  string", "items  array [2]"]
            tree.focus()
            await pilot.press("down", "down")  # the root, kind, items
            await pilot.press("c")
            assert app.clipboard == ".items"
            await pilot.press("enter")  # opens it and puts its path in the box
            await pilot.pause(0.3)
            assert app.program == ".items"
            items = tree.root.children[1].children[0]
            assert str(items.label) == "[]  object"
            tree.focus()
            items.expand()
            await pilot.pause(0.1)
            metadata = items.children[0]
            metadata.expand()
            await pilot.pause(0.1)
            tree.move_cursor(metadata.children[1])
            await pilot.pause(0.1)
            assert str(tree.cursor_node.label) == "app-id  number  in 1 of 2"
            await pilot.press("p")
            assert app.clipboard == "/items/0/metadata/app-id"
            await pilot.press("slash")
            await pilot.pause(0.1)
            await pilot.press("A", "enter")  # any case; keys and values, shallow first
            seen = []
            for _ in range(5):
                await _settled(pilot, app, "Match 1 of")
                seen.append(text_of(app, "status"))
                await pilot.press("n")
            assert seen == ["Match 1 of 5: key at .items[0].metadata",
                            "Match 2 of 5: key at .items[1].metadata",
                            "Match 3 of 5: key at .items[0].metadata.name",
                            "Match 4 of 5: key at .items[1].metadata.name",
                            'Match 5 of 5: key at .items[0].metadata["app-id"]']
            assert str(tree.cursor_node.label) == "metadata  object"  # round to the 1st
            await pilot.press("N", "N")
            assert str(tree.cursor_node.label) == "name  string"
            await pilot.press("slash")
            await pilot.pause(0.1)
            await pilot.press(*"nothing", "enter")
            await _settled(pilot, app, "Nothing")
            assert text_of(app, "status") == "Nothing holds 'nothing' (0 matches in keys " \
                "and values)."
            await pilot.press("q")

    asyncio.run(main())
    assert app.program == ".items"
