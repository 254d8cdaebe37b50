"""What agents may touch: every agent face runs sandboxed unless it is opened up in words
its caller chose: the command line's flags (``jqmagic tool``, ``jqmagic mcp``), the
environment (``JQMAGIC_*``), or the same words as keywords of the Python API's ``call()``
and ``definitions()``.

The sandbox confines files to the allowed roots (the working directory unless given),
refuses shell commands and refuses private, loopback and link-local web addresses;
web_fetch honours robots.txt unless ``ignore_robots_txt``.
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jqmagic.core.settings import configure, env_flag, env_paths, using


def _opening(default: Any, variable: str, words: str) -> Any:
    """A field of :class:`Policy`: its default (closed), the environment variable that
    opens it too, and what its flag does."""
    return dataclasses.field(default=default, metadata={"variable": variable, "words": words})


@dataclass(frozen=True)
class Policy:
    """One face's sandbox, its fields named as the command line's flags."""

    allow_root: tuple[str, ...] = _opening(
        (), "JQMAGIC_ALLOWED_ROOTS", "a folder whose files the tools may read and patch "
        "(repeatable; default: the working directory)")
    allow_exec: bool = _opening(False, "JQMAGIC_EXEC_ALLOWED",
                                "let the jq tool run shell commands (exec)")
    allow_private_addresses: bool = _opening(
        False, "JQMAGIC_PRIVATE_ADDRESSES",
        "let web_fetch reach private, loopback and link-local addresses")
    ignore_robots_txt: bool = _opening(
        False, "JQMAGIC_IGNORE_ROBOTS_TXT",
        "let web_fetch read pages a site's robots.txt keeps from automated agents")
    no_sandbox: bool = _opening(False, "JQMAGIC_NO_SANDBOX",
                                "no sandbox at all: every file, command and address")

    def settings(self) -> dict[str, Any]:
        """The settings this policy puts in force."""
        if self.no_sandbox:
            return {"sandbox": False}
        return {"sandbox": True, "allowed_roots": list(self.allow_root),
                "exec_allowed": self.allow_exec,
                "private_addresses": self.allow_private_addresses}

    @property
    def robots_honoured(self) -> bool:
        return not self.ignore_robots_txt


OPENINGS = tuple(f.name for f in dataclasses.fields(Policy))
"""The keywords that open the sandbox up (``call(..., allow_root=["data"])``)."""

HOST_DEFAULT = Policy()
"""The Python API's policy when neither the call, a face, the host's settings nor the
environment opens the sandbox: closed."""

_face: Policy | None = None  # the policy a command-line face was started with
_scoped: contextvars.ContextVar[Policy | None] = contextvars.ContextVar("policy", default=None)
"""The policy of the call running in this thread (see :func:`scope`)."""


def from_environment(**given: Any) -> Policy:
    """The policy ``given`` (flags or keywords), widened by the environment: the host's
    own ``JQMAGIC_ALLOWED_ROOTS``, ``JQMAGIC_EXEC_ALLOWED=1``,
    ``JQMAGIC_PRIVATE_ADDRESSES=1``, ``JQMAGIC_IGNORE_ROBOTS_TXT=1``, ``JQMAGIC_NO_SANDBOX=1``."""
    opened: dict[str, Any] = {}
    for field in dataclasses.fields(Policy):
        variable = field.metadata["variable"]
        opened[field.name] = (tuple(given.get(field.name) or env_paths(variable))
                              if field.default == () else
                              bool(given.get(field.name)) or env_flag(variable))
    return Policy(**opened)


def in_force(**openings: Any) -> Policy | None:
    """The policy of one call: its own ``openings`` when it gives any, else the one of the
    call running now, else the face's (a command line's flags), else None when the host
    configured the sandbox itself (``settings.sandbox``, ``JQMAGIC_SANDBOX=1``: its settings
    stand), else :data:`HOST_DEFAULT` widened by the environment. An unknown opening is a
    TypeError (the host's slip, not the model's)."""
    from jqmagic.core import sandbox

    unknown = set(openings) - set(OPENINGS)
    if unknown:
        raise TypeError(f"unknown sandbox keyword {sorted(unknown)[0]!r}; use: "
                        f"{', '.join(OPENINGS)}")
    if any(openings.values()):
        return from_environment(**openings)
    if (running := _scoped.get()) is not None:
        return running
    if _face is not None:
        return _face
    if sandbox.enabled():
        return None
    return from_environment(**dataclasses.asdict(HOST_DEFAULT))


@contextlib.contextmanager
def scope(chosen: Policy | None) -> Iterator[None]:
    """``chosen`` in force for one call (this thread's settings; robots.txt's rule); None:
    the settings as they are."""
    if chosen is None:
        yield
        return
    token = _scoped.set(chosen)
    try:
        with using(**chosen.settings()):
            yield
    finally:
        _scoped.reset(token)


def robots_honoured() -> bool:
    """Whether web_fetch honours robots.txt now."""
    chosen = in_force()
    return chosen.robots_honoured if chosen else not env_flag("JQMAGIC_IGNORE_ROBOTS_TXT")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that open the sandbox up (the same in every agent face): one a field of
    :class:`Policy`."""
    group = parser.add_argument_group("sandbox (on by default for agents)")
    for field in dataclasses.fields(Policy):
        flag, words = "--" + field.name.replace("_", "-"), field.metadata["words"]
        if field.default == ():
            group.add_argument(flag, action="append", default=[], metavar="DIR",
                               help=f"{words}; or {field.metadata['variable']}")
        else:
            group.add_argument(flag, action="store_true",
                               help=f"{words}; or {field.metadata['variable']}=1")


def apply(args: argparse.Namespace) -> Policy:
    """Put a command-line face's policy in force for the process, as its flags and the
    environment say."""
    global _face
    _face = from_environment(**{name: getattr(args, name, None) for name in OPENINGS})
    configure(**_face.settings())
    return _face

