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
- web fetches refuse private, loopback, link-local, multicast and metadata addresses
  (:class:`AddressPolicy`, applied after DNS and on every redirect by the web fetch).

The payload store (jqmagic's own cache folder) is outside this policy.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import env_flag, env_paths, payload_dir, settings
from jqmagic.core.words import term


def enabled() -> bool:
    """Whether the sandbox is on (the setting, or ``JQMAGIC_SANDBOX=1``)."""
    return settings.sandbox or env_flag("JQMAGIC_SANDBOX")


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


def denied(what: str, shown: str) -> JqMagicError:
    """SANDBOX_DENIED for a file outside the roots."""
    return JqMagicError(
        "SANDBOX_DENIED", f"The sandbox refuses to {what} {shown}: it is outside the allowed "
        "folders.", f"Use a file under {os.pathsep.join(roots())}. Whoever started jqmagic "
        f"can allow its folder: {term('allow_root')}.")


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
    on and it lies outside the allowed roots (or cannot be resolved)."""
    real = resolve(path)
    if not enabled():
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
    if not enabled():
        return
    try:
        real = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:  # no /proc: the path check before opening stands alone
        return
    if not _inside(real, _readable(what)):
        raise denied(what, shown)


def check_exec(command: str) -> None:
    """SANDBOX_DENIED for a shell command when the sandbox does not allow commands."""
    if not exec_allowed():
        raise JqMagicError(
            "SANDBOX_DENIED", f"The sandbox refuses to run the command {command[:60]!r}.",
            "Read a file or pass the data inline instead. Whoever started jqmagic can allow "
            f"commands: {term('allow_exec')}.")


# ---------------------------------------------------------------- jq programs

_MODULES = re.compile(r"(?<![\w$.])(import|include)\s*\"")
SAFE_ENVIRONMENT = ("HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "PATH", "PWD", "SHELL",
                    "TERM", "TZ", "USER")
"""What ``$ENV`` and ``env`` show of the environment in the sandbox (no secrets)."""


def check_program(program: str, library_paths: list[str]) -> None:
    """SANDBOX_DENIED for jq modules in the sandbox: ``import``/``include`` read files by
    search paths of the program's own choosing, and ``-L`` names folders."""
    if not enabled():
        return
    if library_paths or _MODULES.search(program):
        raise JqMagicError(
            "SANDBOX_DENIED", "The sandbox refuses jq modules (import, include, -L): they read "
            "files from folders the program chooses.", "Define the functions in the program "
            "itself (def f: ...;).")


def safe_environment(environ: dict[str, str]) -> dict[str, str]:
    """The environment a sandboxed worker keeps: :data:`SAFE_ENVIRONMENT` and jqmagic's
    own settings; API keys and other secrets go."""
    return {k: v for k, v in environ.items()
            if k in SAFE_ENVIRONMENT or k.startswith(("JQMAGIC_", "LC_"))}


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


def is_private_address(addr: str) -> bool:
    """True for loopback, private, link-local, multicast, reserved or unspecified IPs
    (the cloud metadata address 169.254.169.254 is link-local)."""
    ip = ipaddress.ip_address(addr.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return bool(ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
                or ip.is_reserved or ip.is_unspecified or not ip.is_global)


def _address_denied(shown: str, host: str, addr: str | None = None) -> JqMagicError:
    where = f"{host} ({addr})" if addr and addr != host else host
    return JqMagicError(
        "SANDBOX_DENIED",
        f"Refused to fetch {shown}: {where} is a private, loopback, link-local or metadata "
        "address", "The sandbox blocks local network targets; fetch a public URL instead.")
