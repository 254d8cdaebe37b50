"""Bounded globs: glob's matches, walked in the calling thread within a deadline, symlink
loops cut, and other sessions' payloads never listed in the sandbox."""

from __future__ import annotations

import glob
import os
import threading
import time
from pathlib import Path

import pytest

from jqmagic.core import payloads
from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import configure, current, settings
from jqmagic.core.sources.files import resolve_files
from jqmagic.core.sources.globwalk import bounded_glob


@pytest.fixture(autouse=True)
def restored(monkeypatch, tmp_path):
    monkeypatch.delenv("JQMAGIC_SANDBOX", raising=False)
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "store"))
    saved = current()
    yield
    configure(**{name: getattr(saved, name) for name in type(saved).__slots__})


@pytest.fixture
def tree(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "t"
    for folder in ("a/b/c", ".hidden", "d"):
        (root / folder).mkdir(parents=True)
    for name in ("x.json", "a/y.json", "a/b/z.json", "a/b/c/w.json", ".hidden/h.json",
                 ".top.json", "d/q.txt"):
        (root / name).write_text("1")
    monkeypatch.chdir(root)
    return root


PATTERNS = ["*.json", "**/*.json", "**", "a/**", "a/**/*.json", "*/*.json", ".*",
            "*/b/*.json", "a/b/*", "**/.hidden/*", "a/*/c/w.json", "nothing/*", "*",
            ".hidden/*", "**/b/**", "[ax]*/*.json", ".*/*.json", "a/b/c/w.json"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_same_files_as_glob(tree, pattern):
    expected = sorted({f for f in glob.glob(pattern, recursive=True) if os.path.isfile(f)})
    assert bounded_glob(pattern) == expected
    absolute = str(tree / pattern)
    assert bounded_glob(absolute) == sorted(
        {f for f in glob.glob(absolute, recursive=True) if os.path.isfile(f)})


def _loops(root: Path, depth: int = 6) -> None:
    """Every folder links back to its parent and to the top: glob walks them until paths
    grow too long, exponentially."""
    folder = root
    for level in range(depth):
        (folder / f"f{level}.json").write_text("1")
        (folder / "up").symlink_to("..")
        (folder / "top").symlink_to(root)
        folder = folder / f"d{level}"
        folder.mkdir()


def _cpu_after(seconds: float) -> float:
    """CPU seconds this process spends while it sleeps ``seconds`` (walkers left behind)."""
    before = time.process_time()
    time.sleep(seconds)
    return time.process_time() - before


def test_symlink_loops_are_cut_and_nothing_walks_on(tmp_path):
    (tmp_path / "loops").mkdir()
    _loops(tmp_path / "loops")
    threads = threading.active_count()
    started = time.monotonic()
    found = bounded_glob(str(tmp_path / "loops" / "**" / "*.json"))
    assert time.monotonic() - started < 5
    real = {os.path.realpath(f) for f in found}
    assert len(real) == 6  # each file once at least, though reached by many names
    assert threading.active_count() == threads
    assert _cpu_after(0.5) < 0.1


def test_a_walk_past_its_deadline_is_timeout_and_stops(tmp_path, monkeypatch):
    """A farm of links with no loop but 2^18 paths: TIMEOUT at the deadline, and no thread
    goes on walking."""
    top = tmp_path / "farm"
    folders = [top / f"n{i}" for i in range(19)]
    for folder in folders:
        folder.mkdir(parents=True)
    for here, below in zip(folders, folders[1:], strict=False):
        (here / "l1").symlink_to(below)
        (here / "l2").symlink_to(below)
    monkeypatch.setattr(settings, "glob_seconds", 0.3)
    threads = threading.active_count()
    started = time.monotonic()
    with pytest.raises(JqMagicError) as caught:
        bounded_glob(str(folders[0] / "**" / "*.json"))
    assert caught.value.code == "TIMEOUT" and time.monotonic() - started < 1.5
    assert "data/**/*.json" in caught.value.hint
    assert threading.active_count() == threads and _cpu_after(0.5) < 0.1


def test_too_many_files_is_too_large(tree, monkeypatch):
    monkeypatch.setattr(settings, "glob_max_files", 3)
    with pytest.raises(JqMagicError) as caught:
        bounded_glob("**/*.json")
    assert caught.value.code == "TOO_LARGE"


def test_other_sessions_payloads_are_not_listed_in_the_sandbox(tmp_path, monkeypatch):
    root = tmp_path / "root"
    store = root / "cache" / "payloads"
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(store))
    (root / "mine.json").parent.mkdir(parents=True, exist_ok=True)
    (root / "mine.json").write_text("1")
    theirs = payloads.store('{"secret": 1}')
    settings.sandbox, settings.allowed_roots = True, [str(root)]
    assert resolve_files(str(root / "**" / "*.json")) == [str(root / "mine.json")]
    with pytest.raises(JqMagicError) as caught:
        resolve_files(str(store / "*" / "payload.json"))
    assert caught.value.code == "NOT_FOUND"
    assert resolve_files(str(store / theirs.id / "payload.json")) == [str(theirs.path)]
    assert resolve_files(str(store / theirs.id / "*.json")) == [str(theirs.path)]
    settings.sandbox = False  # outside the sandbox a glob lists the store as any folder
    assert str(theirs.path) in resolve_files(str(root / "**" / "*.json"))
