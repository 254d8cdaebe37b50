"""The files tests/conftest.py marks slow (``make quick`` leaves them out) exist: a renamed
test file would otherwise slip back into the quick loop unnoticed."""

from pathlib import Path

from tests.conftest import SLOW_FILES

ROOT = Path(__file__).parents[1]


def test_every_slow_file_exists():
    assert sorted(name for name in SLOW_FILES if not (ROOT / name).is_file()) == []
