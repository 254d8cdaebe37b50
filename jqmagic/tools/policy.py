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


@dataclass(frozen=True)
class Policy:
    """One face's sandbox, its fields named as the command line's flags."""

    allow_root: tuple[str, ...] = ()
    allow_exec: bool = False
    allow_private_addresses: bool = False
    ignore_robots_txt: bool = False
    no_sandbox: bool = False

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
    roots = tuple(given.get("allow_root") or ()) or tuple(env_paths("JQMAGIC_ALLOWED_ROOTS"))
    return Policy(
        allow_root=roots,
        allow_exec=bool(given.get("allow_exec")) or env_flag("JQMAGIC_EXEC_ALLOWED"),
        allow_private_addresses=(bool(given.get("allow_private_addresses"))
                                 or env_flag("JQMAGIC_PRIVATE_ADDRESSES")),
        ignore_robots_txt=(bool(given.get("ignore_robots_txt"))
                           or env_flag("JQMAGIC_IGNORE_ROBOTS_TXT")),
        no_sandbox=bool(given.get("no_sandbox")) or env_flag("JQMAGIC_NO_SANDBOX"))


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
    """The flags that open the sandbox up (the same in every agent face)."""
    group = parser.add_argument_group("sandbox (on by default for agents)")
    group.add_argument("--allow-root", action="append", default=[], metavar="DIR",
                       help="a folder whose files the tools may read and patch (repeatable; "
                            "default: the working directory; or JQMAGIC_ALLOWED_ROOTS)")
    group.add_argument("--allow-exec", action="store_true",
                       help="let the jq tool run shell commands (exec); or "
                            "JQMAGIC_EXEC_ALLOWED=1")
    group.add_argument("--allow-private-addresses", action="store_true",
                       help="let web_fetch reach private, loopback and link-local addresses; "
                            "or JQMAGIC_PRIVATE_ADDRESSES=1")
    group.add_argument("--ignore-robots-txt", action="store_true",
                       help="let web_fetch read pages a site's robots.txt keeps from "
                            "automated agents; or JQMAGIC_IGNORE_ROBOTS_TXT=1")
    group.add_argument("--no-sandbox", action="store_true",
                       help="no sandbox at all: every file, command and address (or "
                            "JQMAGIC_NO_SANDBOX=1)")


def apply(args: argparse.Namespace) -> Policy:
    """Put a command-line face's policy in force for the process, as its flags and the
    environment say."""
    global _face
    _face = from_environment(**{name: getattr(args, name, None) for name in OPENINGS})
    configure(**_face.settings())
    return _face

