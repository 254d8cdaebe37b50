"""The settings in force, and every environment variable jqmagic reads.

A :class:`Settings` is immutable. The process has one as its defaults, which only a face
replaces, through :func:`configure` (``%config JqMagic.*``, an agent face's sandbox flags);
:func:`using` puts another in force for a block in this thread (a worker answering its
caller's request, a Dask task judged by its caller's sandbox). Modules read
``settings.NAME``: whatever is in force. Assigning ``settings.NAME = value`` is
:func:`configure` (tests use it through ``monkeypatch``); no module of the package does.
"""

from __future__ import annotations

import _imp  # the extension suffix without importlib.machinery (and warnings) at start-up
import os
import sys

TYPE_CHECKING = False  # typing and dataclasses cost every command's start-up: not imported
if TYPE_CHECKING:
    from pathlib import Path  # pathlib imports re, fnmatch and urllib: not at start-up
    from typing import Any


def _cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.environ.get("JQMAGIC_CACHE_DIR") or os.path.join(base, "jqmagic")


_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max",  # cgroup v2 ("max": none)
                  "/sys/fs/cgroup/memory/memory.limit_in_bytes")  # v1 (none: about 2^63)


def physical_memory() -> int:
    """The memory this process may use, in bytes: the machine's, or its container's
    limit when that is lower (a Binder session sees the host's memory but may use 2 GB);
    0 when the system does not say. Read once a process (``physical_memory.cache_clear()``
    forgets it; functools.cache would import collections at every command's start-up)."""
    if not _MEMORY:
        _MEMORY.append(_read_memory())
    return _MEMORY[0]


_MEMORY: list[int] = []
physical_memory.cache_clear = _MEMORY.clear  # type: ignore[attr-defined]


def _read_memory() -> int:
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        total = 0
    for path in _CGROUP_LIMITS:
        try:
            with open(path) as given:
                limit = given.read().strip()
        except OSError:
            continue
        if limit.isdigit() and (not total or int(limit) < total):
            total = int(limit)
    return total


def default_worker_memory() -> int:
    """Three quarters of that memory: a runaway program fails, the machine survives."""
    return physical_memory() * 3 // 4


def _default_budget() -> int:
    """A quarter of physical memory, at least 1 GiB: a 500 MB log (4 GB parsed) is kept on
    a 24 GB machine, as DuckDB keeps its tables in memory."""
    return max(1 << 30, physical_memory() // 4)


_DEFAULTS: dict[str, Any] = {  # each setting's default (a function: made when asked)
    "max_results": 100,  # what a face shows (the core gathers every result)
    "max_tokens": 50_000,
    "max_message_bytes": 100_000,  # one agent message on the wire (about 25k tokens)
    "result_bytes": 2 << 30,  # text a complete query gathers in memory at most
    "timeout": 30.0,
    "exec_timeout": 60.0,
    "doc_cache_bytes": _default_budget,  # resident bytes of parsed files kept for later
    # queries; also the text a file may have to be read whole
    "worker_memory": 0,  # bytes the query worker may map; 0: 3/4 of physical memory
    "workers": 0,  # query workers a process may run at once; 0: one a core, 2 to 4
    "fast_path": True,  # answer the jq subset in-process (jqmagic.core.jqlang)
    "exec_max_bytes": 2**30,  # a command's output (and any file it writes) at most
    "fetch_max_bytes": 10 * 1024 * 1024,  # a fetched body at most
    "fetch_connect_timeout": 10.0,
    "fetch_read_timeout": 30.0,
    "fetch_total_timeout": 60.0,  # seconds a whole fetch may take
    "fetch_max_redirects": 10,
    "glob_max_files": 100_000,  # files one glob may match
    "glob_seconds": 10.0,  # seconds one glob may walk
    "cache_dir": _cache_dir,
    # The sandbox (see core/sandbox.py); the environment can only turn these on.
    "sandbox": False,  # or JQMAGIC_SANDBOX=1
    "allowed_roots": (),  # or JQMAGIC_ALLOWED_ROOTS; else cwd
    "exec_allowed": False,  # in the sandbox only; or JQMAGIC_EXEC_ALLOWED=1
    "private_addresses": False,  # in the sandbox only: web fetches may reach them
}


class Settings:
    """Limits and defaults shared by every face; keyword arguments override per call.
    Immutable (a changed copy is :meth:`replace`'s); a plain class, not a dataclass: the
    command line reads it at start-up."""

    __slots__ = tuple(_DEFAULTS)

    def __init__(self, **given: Any) -> None:
        for name in given:
            if name not in _DEFAULTS:
                raise TypeError(f"Settings() got an unexpected keyword argument {name!r}")
        for name, default in _DEFAULTS.items():
            value = given[name] if name in given else \
                default() if callable(default) else default
            object.__setattr__(self, name, value)

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (an unknown name is a TypeError)."""
        return Settings(**{**self._values(), **changes})

    def _values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _DEFAULTS}

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Settings are immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(tuple(self._values().items()))

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{k}={v!r}" for k, v in self._values().items()) + ")"


_defaults = Settings()
_SCOPE = "jqmagic.core.scope"  # the context variable, imported by the first using()


def current() -> Settings:
    """The settings in force here: a :func:`using` block's, else the process's defaults."""
    scope = sys.modules.get(_SCOPE)
    return (scope.scoped.get() if scope is not None else None) or _defaults


def _checked(changes: dict[str, Any]) -> dict[str, Any]:
    if "allowed_roots" in changes:  # a list from a trait or a flag: kept as a tuple
        changes = {**changes, "allowed_roots": tuple(changes["allowed_roots"] or ())}
    return changes


def configure(**changes: Any) -> Settings:
    """Replace the process's defaults by a copy with ``changes`` (a face's configuration;
    an unknown name is a TypeError)."""
    global _defaults
    _defaults = _defaults.replace(**_checked(changes))
    return _defaults


class using:  # noqa: N801 - a context manager named as the function it was
    """The settings in force with ``changes``, for the block, in this thread (or asyncio
    task) only (``with using(sandbox=True) as chosen:``). One object may be entered by
    several threads or tasks at once, and again inside its own block."""

    def __init__(self, **changes: Any) -> None:
        self._changes = _checked(changes)
        self._entered: list = []  # (the Settings put in force, its contextvars.Token)

    def __enter__(self) -> Settings:
        from jqmagic.core.scope import scoped

        chosen = current().replace(**self._changes)
        self._entered.append((chosen, scoped.set(chosen)))
        return chosen

    def __exit__(self, *_: object) -> None:
        from jqmagic.core.scope import scoped

        # this context's latest entry: the Settings in force here are the ones it set
        # (another thread's or task's entries are theirs to reset)
        here = scoped.get()
        entry = next(entry for entry in self._entered[::-1] if entry[0] is here)
        self._entered.remove(entry)  # by the token: a tuple of this entry only
        scoped.reset(entry[1])


class _InForce:
    """``settings.NAME`` reads the settings in force; assigning is :func:`configure`."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        return getattr(current(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        configure(**{name: value})

    def __repr__(self) -> str:
        return repr(current())


settings: Any = _InForce()

# ---------------------------------------------------------------- the environment
# Every variable jqmagic reads, read here (when asked, so a changed environment counts).

_TRUE = ("1", "true", "yes", "on")
DEFAULT_PAYLOAD_BUDGET = 2**30


def sandboxed() -> bool:
    """Whether the sandbox is on (the setting, or ``JQMAGIC_SANDBOX=1``: the environment
    can turn it on, never off): :func:`jqmagic.core.sandbox.enabled`, read here so that a
    command judges it without importing the sandbox's policy."""
    return current().sandbox or env_flag("JQMAGIC_SANDBOX")


def env_flag(name: str) -> bool:
    """Whether the environment turns ``name`` on (1, true, yes or on)."""
    return os.environ.get(name, "").strip().lower() in _TRUE


def env_paths(name: str) -> list[str]:
    """The folders listed in ``name`` (separated by ``os.pathsep``)."""
    return [p for p in os.environ.get(name, "").split(os.pathsep) if p.strip()]


def env_text(name: str, default: str = "") -> str:
    """The text of ``name``, stripped."""
    return os.environ.get(name, default).strip()


def payload_dir() -> Path:
    """The payload store's folder: ``$JQMAGIC_PAYLOAD_DIR``, else ``<cache dir>/payloads``."""
    from pathlib import Path

    given = env_text("JQMAGIC_PAYLOAD_DIR")
    return Path(given).expanduser() if given else Path(settings.cache_dir) / "payloads"


def payload_budget() -> int:
    """Bytes the payload store keeps before pruning (``$JQMAGIC_PAYLOAD_BUDGET``, 1 GiB)."""
    given = env_text("JQMAGIC_PAYLOAD_BUDGET")
    return int(given) if given.isdigit() else DEFAULT_PAYLOAD_BUDGET


def optimised_libjq() -> str | None:
    """The libjq to load instead of the binding's unoptimised copy (None: the binding's):
    ``$JQMAGIC_LIBJQ`` when it names a file (``binding``: the binding's copy), else the
    package's own, built with -O2 from vendor/jq-1.8.2 at install (``setup.py``)."""
    given = env_text("JQMAGIC_LIBJQ")
    if given == "binding":
        return None
    path = os.path.expanduser(given) if given else OWN_LIBJQ
    return path if os.path.isfile(path) else None


def libjq_path() -> str:
    """The file of the libjq that runs: :func:`optimised_libjq`'s, else the binding's copy
    (the ``jq`` wheel's extension, which exports libjq's functions)."""
    optimised = optimised_libjq()
    if optimised is not None:
        return optimised
    import jq

    return jq.__file__


OWN_LIBJQ = os.path.join(os.path.dirname(__file__), "query",
                         f"_libjq{_imp.extension_suffixes()[0]}")
"""Where ``pip install`` puts the package's own libjq (a shared library, opened by path)."""


def libjq_build() -> str:
    """Which libjq runs and how it was built, as ``jqmagic --version`` says it."""
    loaded = optimised_libjq()
    if loaded is None:
        return "the jq binding's copy, built without optimisation"
    if loaded == OWN_LIBJQ:
        return "vendored, -O2"
    return f"$JQMAGIC_LIBJQ: {loaded}"


def estimate_tokens(text: str) -> int:
    """An estimate of the tokens in ``text``: about 4 characters a token (not a tokenizer)."""
    return (len(text) + 3) // 4


def no_color() -> bool:
    """Whether ``$NO_COLOR`` asks for no colours (set and not empty: no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def worker_parent() -> int | None:
    """The supervisor's pid a worker was started by (``$JQMAGIC_WORKER_PARENT``)."""
    given = env_text("JQMAGIC_WORKER_PARENT")
    return int(given) if given.isdigit() else None


def worker_memory() -> int:
    """The bytes a worker may map, as its supervisor set them (``$JQMAGIC_WORKER_MEMORY``)."""
    given = env_text("JQMAGIC_WORKER_MEMORY")
    return int(given) if given.isdigit() else 0
