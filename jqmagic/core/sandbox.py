"""The sandbox policy: which files, commands and web addresses jqmagic may touch.

One switch, for notebooks and tools driven by agents: ``settings.sandbox`` or the
environment variable ``JQMAGIC_SANDBOX=1`` (the environment can turn it on, never off).
When on:

- files are read and written only under the allowed roots (``settings.allowed_roots``,
  else ``JQMAGIC_ALLOWED_ROOTS`` separated by ``os.pathsep``, else the working directory),
  judged after ``~``, ``..`` and every symlink are resolved; an opened file is judged again
  by what the descriptor really is, so a path swapped after the check is still caught;
- shell commands (``exec``) are refused unless ``settings.exec_allowed`` or
  ``JQMAGIC_EXEC_ALLOWED=1``;
- web fetches refuse every address that is not globally reachable (IANA's special-purpose
  registries; :class:`AddressPolicy`, applied after DNS and on every redirect);
- jq module directives and library paths are refused, judged from the fast path's parse
  (:func:`may_import`);
- workers start with a scrubbed environment that pins this policy
  (:func:`worker_environment`) and confine themselves to it (``confine``).

The payload store (jqmagic's own cache folder) is readable whatever the roots, but never
listed by a glob in the sandbox (another session's payload is read only by its id).
``CHECKS`` is a test-only hook that switches these checks off in one process, to show the
kernel's confinement holding alone.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import re
import socket
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import (
    env_flag,
    env_paths,
    payload_dir,
    sandboxed,
    settings,
    using,
)
from jqmagic.core.words import cut, term


def enabled() -> bool:
    """Whether the sandbox is on (the setting, or ``JQMAGIC_SANDBOX=1``)."""
    return sandboxed()


CHECKS = True
"""Whether this process runs the checks below: a test-only hook (never read from the
environment), set False to show that a confined worker holds without them."""


def _checking() -> bool:
    return enabled() and CHECKS


def exec_allowed() -> bool:
    """Whether shell commands may run: always outside the sandbox, on request inside."""
    return not enabled() or settings.exec_allowed or env_flag("JQMAGIC_EXEC_ALLOWED")


def roots() -> list[str]:
    """The allowed roots, resolved (symlinks, ``..``, ``~``)."""
    given = settings.allowed_roots or env_paths("JQMAGIC_ALLOWED_ROOTS")
    return [os.path.realpath(os.path.expanduser(r)) for r in given or [os.getcwd()]]


def _inside(real: str, allowed: list[str]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep)
               for root in allowed)


NO_FOLDER = "/dev/null/no-folder"
"""The one allowed root when none is left (a client's roots and the operator's have no
folder in common): nothing can lie under it, /dev/null being a file."""


def narrowed(chosen: list[str], wall: list[str]) -> tuple[list[str], list[str]]:
    """The folders of ``chosen`` (a client's roots) within ``wall`` (the operator's roots,
    resolved), and those of ``chosen`` left out: a root inside the wall stays; a root holding
    walled folders stands for those folders (``/`` gives the wall itself); a root with no
    folder in common with the wall is left out. Roots never widen the wall."""
    kept: list[str] = []
    outside: list[str] = []
    for folder in chosen:
        try:
            absolute = os.path.expanduser(folder)
            real = os.path.realpath(absolute) if os.path.isabs(absolute) else None
        except (OSError, ValueError):  # a NUL byte, a name too long: no folder at all
            real = None
        if real is None:  # nor a relative path or a URI (never the server's own folder)
            outside.append(folder)
            continue
        within = [real] if _inside(real, wall) else [w for w in wall if _inside(w, [real])]
        kept.extend(w for w in within if w not in kept)
        if not within:
            outside.append(folder)
    return kept, outside


def denied(what: str, shown: str) -> JqMagicError:
    """SANDBOX_DENIED for a file outside the roots."""
    where = roots()
    advice = (f"Use a file under {_either(where)}." if where != [NO_FOLDER] else
              "No folder is open: the roots you gave lie outside the folders allowed.")
    return JqMagicError(
        "SANDBOX_DENIED", f"The sandbox refuses to {what} {shown}: it is outside the allowed "
        "folders.", f"{advice} Whoever started jqmagic can allow its folder: "
        f"{term('allow_root')}.")


def _either(folders: list[str], shown: int = 5) -> str:
    """'/a', '/a or /b', '/a, /b or /c', the first ``shown`` and how many more."""
    named = folders[:shown] + ([f"{len(folders) - shown} more folders"]
                               if len(folders) > shown else [])
    return " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


def resolve(path: str) -> str | None:
    """``path`` with ``~``, ``..`` and every symlink resolved, or None when that fails (a
    symlink loop, or links swapped while being read: the lenient ``realpath`` would then
    hand back a name that still holds a link)."""
    expanded = os.path.abspath(os.path.expanduser(path))
    for _ in range(3):
        try:
            return os.path.realpath(expanded, strict=True)
        except FileNotFoundError:
            if not os.path.lexists(expanded):  # a name still free: judge its folder
                parent, name = os.path.split(expanded)
                folder = resolve(parent) if parent != expanded else parent
                return None if folder is None else os.path.join(folder, name)
        except OSError:
            return None
    return None


def check_path(path: str, what: str = "read") -> str:
    """The real path of ``path`` (see :func:`resolve`); SANDBOX_DENIED when the sandbox is
    on and it lies outside the allowed roots (or cannot be resolved); INVALID_ARGUMENT for a
    name holding a NUL character or a lone surrogate (no file is so named: Python refuses
    to ask)."""
    if "\0" in path:
        shown = cut(path.replace("\0", "\\u0000"), 200)
        raise JqMagicError("INVALID_ARGUMENT", f"{shown} names no file: a file name cannot "
                           "hold a NUL character.", "Remove the NUL character (\\u0000) "
                           "from the path.")
    try:
        os.fsencode(path)
    except UnicodeEncodeError as exc:  # a lone surrogate from a JSON escape (\ud800)
        shown = cut(path.encode("utf-8", "backslashreplace").decode(), 200)
        raise JqMagicError("INVALID_ARGUMENT", f"{shown} names no file: a file name cannot "
                           f"hold the lone surrogate \\u{ord(exc.object[exc.start]):04x}.",
                           "Write the character the name holds, or its UTF-8 bytes.") from None
    real = resolve(path)
    if not _checking():
        return real or os.path.realpath(os.path.expanduser(path))
    if real is None or not _inside(real, _readable(what)):
        raise denied(what, path)
    return real


def _readable(what: str) -> list[str]:
    """The roots, plus jqmagic's own payload store for reading (stored results are the
    caller's own answers, whatever the sandbox)."""
    if what != "read":
        return roots()
    return [*roots(), os.path.realpath(payload_dir())]


def check_fd(fd: int, shown: str, what: str = "read") -> None:
    """Judge an open file by what it really is, not by the name it was opened with."""
    if not _checking():
        return
    try:
        real = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:  # no /proc: the path check before opening stands alone
        return
    if not _inside(real, _readable(what)):
        raise denied(what, shown)


def check_exec(command: str) -> None:
    """SANDBOX_DENIED for a shell command when the sandbox does not allow commands."""
    if not exec_allowed() and CHECKS:
        raise JqMagicError(
            "SANDBOX_DENIED", f"The sandbox refuses to run the command {command[:60]!r}.",
            "Read a file or pass the data inline instead. Whoever started jqmagic can allow "
            f"commands: {term('allow_exec')}.")


# ---------------------------------------------------------------- jq programs

_MODULE_WORDS = re.compile(r"\b(?:import|include)\b")
SAFE_ENVIRONMENT = ("HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "PATH", "PWD", "SHELL",
                    "TERM", "TZ", "USER")
"""What ``$ENV`` and ``env`` show of the environment in the sandbox (no secrets)."""


def check_program(program: str, library_paths: list[str]) -> None:
    """SANDBOX_DENIED for jq modules in the sandbox: ``import``/``include`` read files by
    search paths of the program's own choosing, and ``-L`` names folders."""
    if not _checking():
        return
    if library_paths or may_import(program):
        raise JqMagicError(
            "SANDBOX_DENIED", "The sandbox refuses jq modules (import, include, -L): they read "
            "files from folders the program chooses.", "Define the functions in the program "
            "itself (def f: ...;), and spell import/include only inside strings.")


@functools.lru_cache(maxsize=256)
def may_import(program: str) -> bool:
    """Whether jq could read ``program`` as holding a module directive, decided from the
    fast path's parse: a program it parses whole has none (directives are outside its
    grammar); else any ``import``/``include`` token counts, wherever it stands; and a text
    its lexer cannot cut counts when either word appears anywhere in it (when in doubt,
    refuse)."""
    from jqmagic.core.jqlang.errors import NotMine
    from jqmagic.core.jqlang.lexer import tokenize
    from jqmagic.core.jqlang.parser import parse

    try:
        parse(program)
        return False
    except (NotMine, RecursionError):
        pass
    try:
        tokens = tokenize(program)
    except (NotMine, RecursionError):
        return _MODULE_WORDS.search(program) is not None
    return any(t.kind == "keyword" and t.text in ("import", "include") for t in tokens)


def safe_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment a sandboxed worker keeps: :data:`SAFE_ENVIRONMENT` and jqmagic's
    own settings; API keys and other secrets go."""
    return {k: v for k, v in environ.items()
            if k in SAFE_ENVIRONMENT or k.startswith(("JQMAGIC_", "LC_"))}


def worker_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The whole environment to start a sandboxed worker with: :func:`safe_environment`,
    plus this process's sandbox pinned in it (on, its roots, its payload store, its rule
    on commands), which the worker confines itself to at its start (``confine``)."""
    return {**safe_environment(environ), "JQMAGIC_SANDBOX": "1",
            "JQMAGIC_ALLOWED_ROOTS": os.pathsep.join(roots()),
            "JQMAGIC_PAYLOAD_DIR": os.path.realpath(payload_dir()),
            "JQMAGIC_EXEC_ALLOWED": "1" if exec_allowed() else "0"}


def worker_key() -> tuple | None:
    """What a started worker is confined by (None: no sandbox): a worker started under
    another key must be restarted, since a confinement cannot be widened."""
    if not enabled():
        return None
    return tuple(roots()), os.path.realpath(payload_dir()), exec_allowed()


_IMPOSED = ("sandbox", "allowed_roots", "exec_allowed", "private_addresses")


@contextmanager
def imposed(given: Mapping[str, Any]) -> Iterator[None]:
    """Within: this thread judges as the caller whose settings are ``given`` (e.g. a Dask
    worker answering a task of a sandboxed caller, whose environment is not the caller's);
    its own settings are in force again after."""
    with using(**{name: given[name] for name in _IMPOSED if name in given}):
        yield


# ---------------------------------------------------------------- web addresses

_METADATA_HOSTS = {"metadata.google.internal", "metadata", "instance-data"}


@dataclass(frozen=True)
class AddressPolicy:
    """Which web addresses a fetch may reach: everything (``private_ok``), or public
    addresses only, plus the ``allowed`` ones (e.g. a known local service)."""

    private_ok: bool
    allowed: frozenset[str] = frozenset()

    @classmethod
    def current(cls, private_ok: bool | None = None, allowed: tuple[str, ...] = ()
                ) -> AddressPolicy:
        """The policy of the sandbox (private addresses refused when it is on), unless
        ``private_ok`` says otherwise."""
        if private_ok is None:
            private_ok = not enabled() or settings.private_addresses
        return cls(private_ok, frozenset(allowed))

    def check(self, shown: str, host: str, port: int) -> list | None:
        """SANDBOX_DENIED when ``host`` is (or resolves to) a refused address: every
        address it resolves to is checked. The checked lookup is returned (None when
        nothing is checked), for :func:`pinned`."""
        if self.private_ok:
            return None
        if host.lower().rstrip(".") in _METADATA_HOSTS:
            raise _address_denied(shown, host)
        try:
            infos = _resolve(host, port, proto=socket.IPPROTO_TCP)
        except (socket.gaierror, UnicodeError) as exc:
            raise JqMagicError("NETWORK_ERROR", f"Failed to fetch {shown}: DNS lookup failed "
                               f"for {host}", "Check the host name.") from exc
        for info in infos:
            addr = info[4][0]
            if addr not in self.allowed and is_private_address(addr):
                raise _address_denied(shown, host, addr)
        return infos


# ---------------------------------------------------------------- DNS pinning

_resolve = socket.getaddrinfo  # the resolver the checks use (tests replace it)
_pins = threading.local()


def _pinned_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> list:
    """``socket.getaddrinfo``, except that a host pinned in this thread resolves to the
    addresses its check saw."""
    pins = getattr(_pins, "hosts", None)
    if pins and isinstance(host, str) and host.lower().rstrip(".") in pins:
        family = args[0] if args else kwargs.get("family", 0)
        return [info for info in pins[host.lower().rstrip(".")] if family in (0, info[0])]
    return _resolve(host, port, *args, **kwargs)


@contextmanager
def pinned(host: str, infos: list | None) -> Iterator[None]:
    """Within: this thread connects to ``host`` only at the addresses its check resolved
    (no DNS rebinding between the check and the connection; Host and SNI stay the name's).
    Installs a delegating ``socket.getaddrinfo`` the first time it is needed."""
    if infos is None:
        yield
        return
    if socket.getaddrinfo is not _pinned_getaddrinfo:
        socket.getaddrinfo = _pinned_getaddrinfo
    saved = getattr(_pins, "hosts", None)
    _pins.hosts = {**(saved or {}), host.lower().rstrip("."): infos}
    try:
        yield
    finally:
        _pins.hosts = saved


# IANA's special-purpose registries (IPv4 and IPv6): blocks not globally reachable, refused
# beside what ``ipaddress`` already calls private, reserved or not global.
_SPECIAL = tuple(ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
    "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
    "::/8", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001::/32", "2001:db8::/32",
    "2001:10::/28", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10", "fec0::/10",
    "ff00::/8"))
_MAPPED = ipaddress.ip_network("::ffff:0:0/96")  # IPv4-mapped: the IPv4 address itself
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")  # 6to4: the IPv4 address in bits 16-47
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # NAT64 (well-known): the IPv4 in the low 32


def is_private_address(addr: str) -> bool:
    """True for an address that is not globally reachable: loopback, private, link-local
    (the metadata address 169.254.169.254), multicast, reserved, unspecified, and every
    other block of IANA's special-purpose registries (Teredo, site-local ``fec0::/10``,
    IPv4-compatible ``::a.b.c.d``, NAT64 local use). An IPv6 address that embeds an IPv4
    address for the connection (IPv4-mapped, 6to4, well-known NAT64) is judged by it.
    """
    ip = ipaddress.ip_address(addr.split("%")[0])
    embedded = _embedded_ipv4(ip)
    if embedded is not None:
        return is_private_address(str(embedded))
    return bool(not ip.is_global or ip.is_private or ip.is_loopback or ip.is_link_local
                or ip.is_multicast or ip.is_reserved or ip.is_unspecified
                or any(ip.version == net.version and ip in net for net in _SPECIAL))


def _embedded_ipv4(ip: ipaddress.IPv4Address | ipaddress.IPv6Address
                   ) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries to its destination, if any."""
    if ip.version != 6:
        return None
    if ip in _MAPPED or ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _SIX_TO_FOUR:
        return ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF)
    return None


def _address_denied(shown: str, host: str, addr: str | None = None) -> JqMagicError:
    where = f"{host} ({addr})" if addr and addr != host else host
    return JqMagicError(
        "SANDBOX_DENIED",
        f"Refused to fetch {shown}: {where} is a private, loopback, link-local or metadata "
        "address", "The sandbox blocks local network targets; fetch a public URL instead.")
