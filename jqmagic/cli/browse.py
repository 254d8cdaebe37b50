"""``jqmagic browse FILE|-``: a jq box in the terminal (the ``tui`` extra, on Textual):
completion from the data as you type (core/complete: keys with type and presence,
builtins, $names), a live preview of the first results and their count, run in the
worker (the file's parse kept per version) one at a time, the newest program only, and
the merged shape as a tree beside it (counts, presence; Enter puts a node's path in the
box).

Keys (the footer shows them): Tab moves between the box and the tree, even while offers
show; in the box Up/Down choose an offer, Tab or Enter take the chosen one (with none
chosen Enter runs now), Escape closes the offers; Ctrl+Y copies the program (OSC 52); in
the tree, c / p copy a node's jq path / JSON Pointer, / searches keys and values (as the
notebook's tree does) and n / N go from one match to the next; Escape (or q in the tree)
quits and prints the last program (to paste into a script). Text from the document is
shown, never obeyed: control characters are made visible and no markup is read.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

from jqmagic.cli.browsetext import clipboard_note, preview_text, visible
from jqmagic.core.pointers import jq_step
from jqmagic.core.words import key_label

INSTALL_HINT = "jqmagic browse needs the tui extra: pip install 'jqmagic[tui]' (Textual)."
DEBOUNCE = 0.12  # seconds of quiet before the preview runs


def browse_arguments(parser: argparse.ArgumentParser) -> None:
    """The command line of ``jqmagic browse``."""
    parser.add_argument("source", metavar="FILE", help="a JSON, JSON Lines or YAML file, "
                        "or - for standard input")
    parser.add_argument("program", nargs="?", default=".", help="the jq program to start "
                        "with (default: .)")
    parser.add_argument("--jsonl", action="store_true", default=None,
                        help="read standard input as JSON Lines")


def run_browse(args: argparse.Namespace) -> int:
    """Open the browser; print the last program on exit."""
    try:
        import textual  # noqa: F401
    except ImportError:
        print(f"error: {INSTALL_HINT}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="jqmagic-browse-") as scratch:
        path = args.source
        if path == "-":  # kept in a file: the worker's caches and the shape read it
            path = os.path.join(scratch, "stdin.jsonl" if args.jsonl else "stdin.json")
            with open(path, "wb") as out:
                out.write(sys.stdin.buffer.read())
            try:
                _keys_from_terminal()
            except OSError:
                print("error: INVALID_ARGUMENT: jqmagic browse - read standard input, but no "
                      "terminal is left for the keys.\nhint: run it in a terminal: curl ... "
                      "| jqmagic browse -", file=sys.stderr)
                return 1
        elif not os.path.exists(path):
            print(f"error: NOT_FOUND: File not found: {path}\nhint: check the file's name.",
                  file=sys.stderr)
            return 1
        app = browser(path, args.program)
        app.run()
    print(app.program)
    return 0


def _keys_from_terminal() -> None:
    """After a pipe was read, take the keys from the terminal."""
    tty = os.open("/dev/tty", os.O_RDONLY)
    os.dup2(tty, 0)
    os.close(tty)
    sys.stdin = sys.__stdin__ = open(0, closefd=False)  # noqa: SIM115


def browser(path: str, program: str = ".") -> Any:
    """The Textual app on ``path`` (imported here: Textual is an extra)."""
    from rich.text import Text
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.containers import Horizontal, VerticalScroll
    from textual.widgets import Footer, Input, OptionList, Static, Tree
    from textual.widgets.option_list import Option
    from textual.worker import get_current_worker

    from jqmagic.core.browsing.jqbox import Previews
    from jqmagic.core.complete import Completions, complete
    from jqmagic.core.complete.shapes import shape_of
    from jqmagic.core.options import Source

    class Shape(Tree):
        """The merged shape, opened as you go; Enter puts a node's path in the jq box."""

        BINDINGS = [Binding("c", "copy_path", "copy path"),
                    Binding("p", "copy_pointer", "copy pointer", show=False),
                    Binding("n", "app.hit(1)", "next"),
                    Binding("N", "app.hit(-1)", "previous", show=False),
                    Binding("q", "app.quit", "quit", show=False)]

        def action_copy_path(self) -> None:
            self._copy(0, "The jq path")

        def action_copy_pointer(self) -> None:
            self._copy(1, "The JSON Pointer")

        def _copy(self, which: int, what: str) -> None:
            node = self.cursor_node
            if node is not None and node.data is not None:
                self.app.copy_to_clipboard(node.data[which])
                self.app.say(clipboard_note(f"{what} {visible(node.data[which])}"))

    class Browse(App):
        """The jq box, its offers, one status line, the tree and the preview."""

        CSS = """
        #offers { max-height: 8; display: none; }
        #offers.shown { display: block; }
        #status { color: $text-muted; height: auto; max-height: 3; }
        #shape { width: 45%; }
        #preview.stale { color: $text-disabled; }
        """
        # Tab and / are the app's own (priority: taken before the keys that follow them are
        # passed on, so "/number" typed at once is all the search's)
        BINDINGS = [Binding("tab", "switch", "box ⇄ tree", priority=True),
                    Binding("slash", "search", "search", priority=True),
                    Binding("enter", "search_go", show=False, priority=True),
                    Binding("shift+tab", "switch", show=False, priority=True),
                    Binding("escape", "leave", "close offers / quit", priority=True),
                    Binding("ctrl+y", "copy", "copy program"),
                    Binding("ctrl+q", "quit", "quit", show=False)]

        def __init__(self) -> None:
            super().__init__()
            self.program = program
            self.offers = Completions(0, 0)
            self._timer = None
            self.asked = 0  # the generation of the newest preview asked for
            self.shown_program: str | None = None  # the program the preview shows
            self.previews = Previews(self._answer, self._answered)
            self.values: Any = None  # the notebook's tree model, for search (on first /)
            self.hits: list[dict] = []
            self.hit_at = 0

        def compose(self) -> ComposeResult:
            yield Input(value=program, id="jq", placeholder="a jq program")
            offers = OptionList(id="offers")
            offers.can_focus = False  # the box keeps the keys
            yield offers
            yield Static(id="status", markup=False)
            search = Input(id="search", placeholder="search keys and values (Enter: go)")
            search.display = False
            yield search
            with Horizontal():
                yield Shape("shape", id="shape")
                with VerticalScroll():
                    yield Static(id="preview", markup=False)
            yield Footer()

        def on_mount(self) -> None:
            self.query_one("#jq", Input).focus()
            self.title = visible(f"jqmagic browse {os.path.basename(path)}")
            self._changed(program)
            self.run_worker(self._read_shape, thread=True, group="shape")

        def _later(self, callback, *args) -> None:
            """``callback(*args)`` on the app's thread, asked from another thread; nothing
            once the app is ending (a call into its closed loop leaves a coroutine never
            awaited, and its widgets may be gone)."""
            if not self.is_running:
                return
            try:
                self.call_from_thread(callback, *args)
            except Exception:
                if self.is_running:  # a bug while the app runs is shown, not dropped
                    raise

        def say(self, text: str) -> None:
            """The one status line (no toasts piled over the preview)."""
            self.query_one("#status", Static).update(Text(visible(text)))

        # -- the shape tree ---------------------------------------------------------------
        def _read_shape(self) -> None:
            root, several = shape_of(Source.of(file=path))
            self._later(self._show_shape, root, several)

        def _show_shape(self, root, several: bool) -> None:
            tree = self.query_one("#shape", Shape)
            if several and root.items is not None:  # JSON Lines: `.` is each line
                root = root.items
            tree.root.set_label(Text(visible(f"{os.path.basename(path)}  "
                                             f"{shape_label(root)}")))
            tree.root.data = (".", "", root, "")
            _grow(tree.root)
            tree.root.expand()

        def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
            if not event.node.children and event.node.data is not None:
                _grow(event.node)

        def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
            if event.node.data is not None:
                box = self.query_one("#jq", Input)
                box.value = event.node.data[0]
                box.cursor_position = len(box.value)
                self.set_focus(box)

        # -- keys -------------------------------------------------------------------------
        def check_action(self, action: str, parameters: tuple) -> bool | None:
            """/ searches from the tree; in the jq box it is jq's division."""
            if action == "search":
                return self.focused is self.query_one("#shape", Shape) or None
            if action == "search_go":  # Enter in the search box (else the widget's own)
                return self.focused is self.query_one("#search", Input) or None
            return True

        def action_search_go(self) -> None:
            """Enter in the search box: the tree takes the next keys now; the search starts
            once the box has taken the keys typed before Enter (still in its queue)."""
            box = self.query_one("#search", Input)
            self.set_focus(self.query_one("#shape", Shape))
            box.call_later(lambda: self._search(box.value))

        def action_switch(self) -> None:
            """Tab: take the offer chosen with Up/Down, else go between box and tree."""
            box = self.query_one("#jq", Input)
            chosen = self.query_one("#offers", OptionList).highlighted
            if self.focused is box and self._offering() and chosen is not None:
                self._take(chosen)
            elif self.focused is box:
                self._close_offers()
                self.set_focus(self.query_one("#shape", Shape))  # now: keys may follow
            else:
                self.query_one("#search", Input).display = False
                self.set_focus(box)

        def action_leave(self) -> None:
            """Escape: close the offers, then the search box; else quit."""
            search = self.query_one("#search", Input)
            if self._offering():
                self._close_offers()
            elif search.display:
                search.display = False
                self.set_focus(self.query_one("#shape", Shape))
            else:
                self.exit()

        def action_copy(self) -> None:
            self.copy_to_clipboard(self.program)
            self.say(clipboard_note("The program"))

        def on_key(self, event) -> None:
            if not (self._offering() and self.focused is self.query_one("#jq", Input)):
                return
            if event.key in ("down", "up"):
                offers = self.query_one("#offers", OptionList)
                count = offers.option_count
                now = offers.highlighted
                if now is None:
                    offers.highlighted = 0 if event.key == "down" else count - 1
                else:
                    offers.highlighted = (now + (1 if event.key == "down" else -1)) % count
                event.prevent_default()
                event.stop()

        def on_input_changed(self, event: Input.Changed) -> None:
            if event.input.id == "jq":
                self._changed(event.value)

        def on_input_submitted(self, event: Input.Submitted) -> None:
            chosen = self.query_one("#offers", OptionList).highlighted
            if self._offering() and chosen is not None:
                self._take(chosen)
            else:
                self._close_offers()
                self._run(event.value)

        # -- offers -----------------------------------------------------------------------
        def _offering(self) -> bool:
            return bool(self.offers.offers) and \
                self.query_one("#offers", OptionList).has_class("shown")

        def _changed(self, text: str) -> None:
            self.program = text
            cursor = self.query_one("#jq", Input).cursor_position
            self.run_worker(lambda: self._offer(text, cursor), thread=True, exclusive=True,
                            group="offers")
            if self.shown_program != text:  # what shows is another program's answer
                self.query_one("#preview", Static).set_class(True, "stale")
            if self._timer is not None:
                self._timer.stop()
            self._timer = self.set_timer(DEBOUNCE, lambda: self._run(text))

        def _offer(self, text: str, cursor: int) -> None:
            done = complete(text, min(cursor, len(text)), file=path)
            if not get_current_worker().is_cancelled:
                self._later(self._show_offers, text, done)

        def _show_offers(self, text: str, done: Completions) -> None:
            box = self.query_one("#jq", Input)
            if box.value != text:  # an older key's offers
                return
            word = text[done.start:done.end]
            done = Completions(done.start, done.end,  # one typed in full is no offer
                               [o for o in done.offers if o.text != word], done.note)
            self.offers = done
            offers = self.query_one("#offers", OptionList)
            offers.clear_options()
            offers.add_options([Option(Text(visible(f"{o.text}  {o.type}")))
                                for o in done.offers[:200]])
            offers.highlighted = None  # none chosen: Tab goes to the tree, Enter runs
            offers.set_class(bool(done.offers) and self.focused is box, "shown")

        def _close_offers(self) -> None:
            self.query_one("#offers", OptionList).set_class(False, "shown")

        def _take(self, index: int) -> None:
            box = self.query_one("#jq", Input)
            done, offer = self.offers, self.offers.offers[index]
            text = box.value[:done.start] + offer.text + box.value[done.end:]
            box.value = text
            box.cursor_position = done.start + len(offer.text)
            self._close_offers()

        # -- the preview: the newest program's answer only --------------------------------
        def _run(self, text: str) -> None:
            if self._timer is not None:
                self._timer.stop()
            self.asked += 1
            self.say(f"running {text.strip() or '.'} …")  # the busy sign
            self.previews.ask({"gen": self.asked, "text": text})

        @staticmethod
        def _answer(request: dict) -> dict:
            shown, status = preview_text(request["text"].strip() or ".", path)
            return {"program": request["text"], "shown": shown, "status": status}

        def _answered(self, answer: dict) -> None:
            self._later(self._show_preview, answer)

        def _show_preview(self, answer: dict) -> None:
            if answer["gen"] != self.asked or answer["program"] != self.program:
                return  # an earlier program's: never drawn
            preview = self.query_one("#preview", Static)
            if answer.get("error"):  # the preview itself failed (a bug): said, not hidden
                answer = {**answer, "shown": None, "status": answer["error"]}
            if answer["shown"] is None:  # an error replaces the last answer at once
                preview.update(Text(answer["status"]))
                self.say(f"{(answer['program'].strip() or '.')} fails: why is below.")
            else:
                preview.update(Text(answer["shown"]))
                self.say(answer["status"])
            self.shown_program = answer["program"]
            preview.set_class(False, "stale")

        # -- search: keys and values, as the notebook's tree searches ---------------------
        def action_search(self) -> None:
            box = self.query_one("#search", Input)
            box.display = True
            self.set_focus(box)  # now, not later: the keys right after / are the search's

        def _search(self, text: str) -> None:
            self.query_one("#search", Input).display = False
            self.set_focus(self.query_one("#shape", Shape))
            if text:
                self.say(f"searching keys and values for {text!r} …")
                self.run_worker(lambda: self._searching(text), thread=True,
                                exclusive=True, group="search")

        def _searching(self, text: str) -> None:
            from jqmagic.cli.browsesearch import values_model

            if self.values is None:
                self._later(self.say, "reading the values to search them …")
                self.values = values_model(path)
            hits, note = self.values.search(
                text, progress=lambda said: self._later(self.say, said))
            if not get_current_worker().is_cancelled:
                self._later(self._found, text, hits, note)

        def _found(self, text: str, hits: list[dict], note: str) -> None:
            self.hits, self.hit_at = hits, 0
            if hits:
                self.action_hit(0)
            else:
                self.say(f"Nothing holds {text!r} ({note}).")

        def action_hit(self, step: int) -> None:
            if not self.hits:
                return
            self.hit_at = (self.hit_at + step) % len(self.hits)
            hit = self.hits[self.hit_at]
            tree = self.query_one("#shape", Shape)
            branch = tree.root
            for name in self.values.steps(hit["id"]):
                if not branch.children:
                    _grow(branch)
                branch.expand()
                found = next((c for c in branch.children
                              if c.data is not None and c.data[3] == name), None)
                if found is None:
                    break
                branch = found
            self.call_after_refresh(tree.move_cursor, branch)  # its line known by then
            where = hit.get("path") or hit["where"]
            what = f"key at {where}" if hit["match"] == "key" else f"{where} = {hit['match']}"
            self.say(f"Match {self.hit_at + 1} of {len(self.hits):,}: {what}")

    def _grow(branch) -> None:
        """Add the children of a shape node's branch (keys, then the merged items)."""
        jq, pointer, node, _ = branch.data
        below = list((node.keys or {}).items())
        for key, child in below[:SHAPE_KEYS]:
            steps = (jq_step("" if jq == "." else jq, key), f"{pointer}/{_escaped(key)}")
            branch.add(Text(visible(f"{key_label(key)}  {shape_label(child, node.objects)}")),
                       data=(*steps, child, key), allow_expand=_opens(child))
        if len(below) > SHAPE_KEYS or node.extra is not None:
            branch.add_leaf(f"… {len(below) - SHAPE_KEYS + node.extra_count:,} more keys")
        if node.items is not None and node.items.count:
            steps = (jq_step("" if jq == "." else jq, None), f"{pointer}/0")
            branch.add(Text(f"[]  {shape_label(node.items)}"),
                       data=(*steps, node.items, None), allow_expand=_opens(node.items))

    return Browse()


SHAPE_KEYS = 200  # keys shown under one node


def shape_label(node: Any, objects: int | None = None) -> str:
    """A shape node's line: its types, how many, and presence where keys come and go."""
    text = node.type_str()
    if node.len_max is not None:
        text += f" [{node.len_min}..{node.len_max}]" if node.len_min != node.len_max \
            else f" [{node.len_max}]"
    if objects is not None and node.count < objects:
        text += f"  in {node.count:,} of {objects:,}"
    return text


def _opens(node: Any) -> bool:
    return bool(node.keys) or (node.items is not None and node.items.count > 0)


def _escaped(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


__all__ = ["browse_arguments", "browser", "preview_text", "run_browse", "shape_label"]
