"""Process-wide defaults (the magics' ``%config JqMagic.*`` traits write here)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(os.environ.get("JQMAGIC_CACHE_DIR") or os.path.join(base, "jqmagic"))


@dataclass
class Settings:
    """Limits and defaults shared by every face; keyword arguments override per call."""

    max_results: int = 100
    max_tokens: int = 50_000
    timeout: float = 30.0
    exec_timeout: float = 60.0
    doc_cache_bytes: int = 1 << 30  # source bytes of parsed files kept for later queries
    fast_path: bool = True  # answer the jq subset in-process (jqmagic.core.jqlang)
    exec_max_bytes: int = 2**30  # a command's output (and any file it writes) at most
    cache_dir: Path = field(default_factory=_cache_dir)
    # The sandbox (see core/sandbox.py); the environment can only turn these on.
    sandbox: bool = False  # or JQMAGIC_SANDBOX=1
    allowed_roots: list[str] = field(default_factory=list)  # or JQMAGIC_ALLOWED_ROOTS; else cwd
    exec_allowed: bool = False  # in the sandbox only; or JQMAGIC_EXEC_ALLOWED=1


settings = Settings()


def estimate_tokens(text: str) -> int:
    """An estimate of the tokens in ``text``: about 4 characters a token (not a tokenizer)."""
    return (len(text) + 3) // 4
