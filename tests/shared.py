"""Where the shared test data lives: ../shared beside the project (suites and corpora)."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS_JSON = SHARED / "corpus" / "json"
