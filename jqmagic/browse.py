"""``jqmagic browse FILE|-``: a jq box in the terminal (the ``tui`` extra, on Textual):
completion from the data as you type (core/complete: keys with type and presence,
builtins, $names), a live preview of the first results and their count, run in the
worker (the file's parse kept per version), each run superseded by the next key, and the
merged shape as a tree beside it (counts, presence; Enter puts a node's path in the box).

Keys: Tab takes the chosen offer, Up/Down choose, Enter runs now, Ctrl+Y copies the
program (OSC 52); in the tree, c / p copy a node's jq path / JSON Pointer, / searches the
keys and n / N go from one to the next; Escape, Ctrl+Q (or q in the tree) quit and print
the last program (to paste into a script).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import deque
from typing import Any

from jqmagic.core.pointers import jq_step

INSTALL_HINT = "jqmagic browse needs the tui extra: pip install 'jqmagic[tui]' (Textual)."
PREVIEW_RESULTS = 20
PREVIEW_CHARS = 400  # a result shown at most
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


def preview_text(program: str, path: str) -> tuple[str | None, str]:
    """The first results of ``program`` on ``path`` as compact JSON lines (None on an
    error: the last answer stays in view), and the status line (their count and time, or
    the error with its caret and hint)."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.query.run import preview

    try:  # no payload stored: the next key draws another preview
        result = preview(program, file=path, limit=PREVIEW_RESULTS, timeout=10)
    except JqMagicError as exc:
        return None, exc.render("terminal")
    lines = []
    for value in result.values:
        text = json.dumps(value, ensure_ascii=False)
        lines.append(text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + " …")
    more = "" if result.total <= len(result.values) else \
        f" (the first {len(result.values)} shown)"
    return "\n".join(lines), f"{result.total:,} result(s){more} in {result.elapsed:.2f} s"


def browser(path: str, program: str = ".") -> Any:
    """The Textual app on ``path`` (imported here: Textual is an extra)."""
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal, VerticalScroll
    from textual.widgets import Input, OptionList, Static, Tree
    from textual.widgets.option_list import Option
    from textual.worker import get_current_worker

    from jqmagic.core.complete import Completions, complete
    from jqmagic.core.complete.shapes import shape_of
    from jqmagic.core.options import Source

    class Shape(Tree):
        """The merged shape, opened as you go; Enter puts a node's path in the jq box."""

        BINDINGS = [("c", "copy_path", "copy the jq path"),
                    ("p", "copy_pointer", "copy the JSON Pointer"), ("q", "app.quit", "quit"),
                    ("slash", "app.search", "search keys"), ("n", "app.hit(1)", "next"),
                    ("N", "app.hit(-1)", "previous")]

        def action_copy_path(self) -> None:
            self._copy(0, "jq path")

        def action_copy_pointer(self) -> None:
            self._copy(1, "JSON Pointer")

        def _copy(self, which: int, what: str) -> None:
            node = self.cursor_node
            if node is not None and node.data is not None:
                self.app.copy_to_clipboard(node.data[which])
                self.app.notify(f"The {what} {node.data[which]} is on the clipboard.")

    class Browse(App):
        """The jq box, its offers, the preview and its status."""

        CSS = """
        #offers { max-height: 8; display: none; }
        #offers.shown { display: block; }
        #status { color: $text-muted; height: auto; }
        #shape { width: 45%; }
        #search { display: none; }
        #search.shown { display: block; }
        """
        BINDINGS = [("escape", "quit", "quit"), ("ctrl+q", "quit", "quit"),
                    ("ctrl+y", "copy", "copy the program")]

        def __init__(self) -> None:
            super().__init__()
            self.program = program
            self.offers = Completions(0, 0)
            self._timer = None
            self.hits: list[list] = []  # the tree nodes' paths of the keys searched
            self.hit_at = 0

        def compose(self) -> ComposeResult:
            yield Input(value=program, id="jq", placeholder="a jq program")
            yield OptionList(id="offers")
            yield Static(id="status")
            yield Input(id="search", placeholder="search keys (Enter: go, n / N: next)")
            with Horizontal():
                yield Shape("shape", id="shape")
                with VerticalScroll():
                    yield Static(id="preview", markup=False)

        def on_mount(self) -> None:
            self.query_one("#jq", Input).focus()
            self.title = f"jqmagic browse {os.path.basename(path)}"
            self._changed(program)
            self.run_worker(self._read_shape, thread=True, group="shape")

        def _read_shape(self) -> None:
            root, several = shape_of(Source.of(file=path))
            self.call_from_thread(self._show_shape, root, several)

        def _show_shape(self, root, several: bool) -> None:
            tree = self.query_one("#shape", Shape)
            if several and root.items is not None:  # JSON Lines: `.` is each line
                root = root.items
            tree.root.set_label(f"{os.path.basename(path)}  {shape_label(root)}")
            tree.root.data = (".", "", root)
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
                box.focus()

        def action_copy(self) -> None:
            self.copy_to_clipboard(self.program)  # OSC 52: through ssh and tmux too
            self.notify("The program is on the clipboard.")

        def on_input_changed(self, event: Input.Changed) -> None:
            if event.input.id == "jq":
                self._changed(event.value)

        def on_input_submitted(self, event: Input.Submitted) -> None:
            if event.input.id == "search":
                self._search(event.value)
            else:
                self._run(event.value)

        def action_search(self) -> None:
            box = self.query_one("#search", Input)
            box.set_class(True, "shown")
            self.call_after_refresh(box.focus)  # once shown: a hidden input takes no focus

        def _search(self, text: str) -> None:
            self.query_one("#search", Input).set_class(False, "shown")
            tree = self.query_one("#shape", Shape)
            tree.focus()
            if tree.root.data is None:
                return
            self.hits, self.hit_at = find_keys(tree.root.data[2], text), 0
            if self.hits:
                self.action_hit(0)
            else:
                self.query_one("#status", Static).update(f"No key holds {text!r}.")

        def action_hit(self, step: int) -> None:
            if not self.hits:
                return
            self.hit_at = (self.hit_at + step) % len(self.hits)
            tree = self.query_one("#shape", Shape)
            branch = tree.root
            for node in self.hits[self.hit_at]:
                if not branch.children:
                    _grow(branch)
                branch.expand()
                branch = next(c for c in branch.children if c.data and c.data[2] is node)
            tree.move_cursor(branch)
            self.query_one("#status", Static).update(
                f"Key {self.hit_at + 1} of {len(self.hits):,}: {branch.data[0]}")


        def _changed(self, text: str) -> None:
            self.program = text
            cursor = self.query_one("#jq", Input).cursor_position
            self.run_worker(lambda: self._offer(text, cursor), thread=True, exclusive=True,
                            group="offers")
            if self._timer is not None:
                self._timer.stop()
            self._timer = self.set_timer(DEBOUNCE, lambda: self._run(text))

        def _offer(self, text: str, cursor: int) -> None:
            done = complete(text, min(cursor, len(text)), file=path)
            if not get_current_worker().is_cancelled:
                self.call_from_thread(self._show_offers, done)

        def _show_offers(self, done: Completions) -> None:
            word = self.query_one("#jq", Input).value[done.start:done.end]
            done = Completions(done.start, done.end,  # one typed in full is no offer
                               [o for o in done.offers if o.text != word], done.note)
            self.offers = done
            offers = self.query_one("#offers", OptionList)
            offers.clear_options()
            offers.add_options([Option(f"{o.text}  {o.type}") for o in done.offers[:200]])
            offers.set_class(bool(done.offers), "shown")
            if done.offers:
                offers.highlighted = 0

        def _run(self, text: str) -> None:
            self.run_worker(lambda: self._preview(text), thread=True, exclusive=True,
                            group="preview")

        def _preview(self, text: str) -> None:
            shown, status = preview_text(text, path)
            if not get_current_worker().is_cancelled:
                self.call_from_thread(self._show_preview, shown, status)

        def _show_preview(self, shown: str | None, status: str) -> None:
            if shown is not None:
                self.query_one("#preview", Static).update(shown)
            self.query_one("#status", Static).update(status)

        def on_key(self, event) -> None:
            offers = self.query_one("#offers", OptionList)
            if not (self.offers.offers and offers.has_class("shown")
                    and self.focused is self.query_one("#jq", Input)):
                return
            if event.key in ("down", "up"):
                count = offers.option_count
                step = 1 if event.key == "down" else -1
                offers.highlighted = ((offers.highlighted or 0) + step) % count
                event.prevent_default()
                event.stop()
            elif event.key == "tab":
                self._take(offers.highlighted or 0)
                event.prevent_default()
                event.stop()

        def _take(self, index: int) -> None:
            box = self.query_one("#jq", Input)
            done, offer = self.offers, self.offers.offers[index]
            text = box.value[:done.start] + offer.text + box.value[done.end:]
            box.value = text
            box.cursor_position = done.start + len(offer.text)
            self.query_one("#offers", OptionList).set_class(False, "shown")

    def _grow(branch) -> None:
        """Add the children of a shape node's branch (keys, then the merged items)."""
        jq, pointer, node = branch.data
        below = list((node.keys or {}).items())
        for key, child in below[:SHAPE_KEYS]:
            steps = (jq_step("" if jq == "." else jq, key), f"{pointer}/{_escaped(key)}")
            branch.add(f"{key}  {shape_label(child, node.objects)}", data=(*steps, child),
                       allow_expand=_opens(child))
        if len(below) > SHAPE_KEYS or node.extra is not None:
            branch.add_leaf(f"… {len(below) - SHAPE_KEYS + node.extra_count:,} more keys")
        if node.items is not None and node.items.count:
            steps = (jq_step("" if jq == "." else jq, None), f"{pointer}/0")
            branch.add(f"[]  {shape_label(node.items)}", data=(*steps, node.items),
                       allow_expand=_opens(node.items))

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


SEARCH_NODES = 100_000  # shape nodes a search looks at, shallow first


def find_keys(root: Any, text: str) -> list[list]:
    """The keys below ``root`` holding ``text`` (any case), shallowest first, each as the
    nodes from ``root``'s child down to its own (the tree shows the first keys only)."""
    wanted, found = text.casefold(), []
    queue, seen = deque([(root, [])]), 0
    while queue and seen < SEARCH_NODES:
        node, trail = queue.popleft()
        seen += 1
        for key, child in list((node.keys or {}).items())[:SHAPE_KEYS]:
            if wanted in key.casefold():
                found.append([*trail, child])
            queue.append((child, [*trail, child]))
        if node.items is not None and node.items.count:
            queue.append((node.items, [*trail, node.items]))
    return found


def _opens(node: Any) -> bool:
    return bool(node.keys) or (node.items is not None and node.items.count > 0)


def _escaped(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
