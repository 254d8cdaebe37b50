"""A sandboxed worker process confined by the kernel (Linux), so the sandbox holds when a
check in Python is missed: Landlock limits the files it may read and write and its TCP,
seccomp refuses it new sockets, and it dies with the process that started it.

Landlock (Linux 5.13+) is applied as far as the kernel's ABI goes (:func:`landlock_abi`;
TCP rules from ABI 4, signal and abstract-socket scoping from ABI 6). On a kernel without
it, :func:`shortfall` says so in one sentence, and the sandbox's own checks are what holds
for files; seccomp (any kernel since 3.5) still refuses sockets.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import queue
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from typing import Any

from jqmagic.core import sandbox
from jqmagic.core.settings import optimised_libjq, payload_dir

LINUX = sys.platform.startswith("linux")
_libc = ctypes.CDLL(None, use_errno=True)
if LINUX:
    _libc.syscall.restype = ctypes.c_long
    _libc.prctl.restype = ctypes.c_int
    _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                            ctypes.c_ulong]

# Linux's numbers (the same on every architecture for Landlock; x86-64 and arm64 for the
# rest, the only ones seccomp is written for here).
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP = 1, 38, 22
_ARCHES = {"x86_64": (0xC000003E, 41, 425), "aarch64": (0xC00000B7, 198, 425)}
"""machine -> (AUDIT_ARCH, socket's number, io_uring_setup's number)."""

# Landlock's filesystem rights, and the ABI that brought each group.
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # rights a file takes
_NET_TCP = 0b11  # BIND_TCP | CONNECT_TCP (ABI 4)
_SCOPES = 0b11  # abstract UNIX sockets and signals outside the domain (ABI 6)

READ = READ_FILE | READ_DIR
RUNTIME = READ | EXECUTE
WRITE = READ | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | REFER | TRUNCATE
_SYSTEM_READ = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32",
                "/usr/libexec", "/usr/bin", "/bin", "/usr/local/lib", "/usr/share/zoneinfo",
                "/usr/lib/locale", "/etc/ld.so.cache", "/etc/localtime", "/etc/ssl",
                "/etc/pki", "/etc/ca-certificates", "/proc/self", "/sys/devices/system/cpu")
_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


@dataclass(frozen=True)
class Policy:
    """What a confined process may touch: ``read`` (files and folders, read only),
    ``runtime`` (read and execute: the interpreter, its libraries), ``write`` (read and
    write: scratch), ``unlisted`` (read and write files by their names, no folder listed:
    the payload store, whose other payloads are found only by id) and, unless
    ``network``, no socket at all."""

    read: tuple[str, ...]
    write: tuple[str, ...]
    runtime: tuple[str, ...] = ()
    unlisted: tuple[str, ...] = ()
    network: bool = False

    @classmethod
    def for_worker(cls, scratch: str, roots: list[str] | None = None) -> Policy:
        """The query worker's policy: the sandbox's roots readable, its ``scratch`` folder
        and the payload store writable, Python's runtime and jqmagic's own files readable,
        no network. When the sandbox allows commands, they may also write under the roots
        (as the sandbox lets patches do); jq itself never writes."""
        import jqmagic

        store = str(payload_dir())
        with contextlib.suppress(OSError):  # a rule needs the folder to exist
            os.makedirs(store, exist_ok=True)
        libjq = optimised_libjq()  # $JQMAGIC_LIBJQ may name one anywhere
        sites = [p for p in sys.path  # user or system site folders outside the prefixes
                 if os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages")]
        runtime = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                   os.path.dirname(os.path.abspath(jqmagic.__file__)), *_SYSTEM_READ,
                   *sites, *([str(libjq)] if libjq else [])}
        given = tuple(roots if roots is not None else sandbox.roots())
        commands = sandbox.exec_allowed()
        return cls(read=() if commands else given,
                   write=(scratch, *(given if commands else ())),
                   runtime=tuple(sorted(runtime)), unlisted=(store,))


@dataclass(frozen=True)
class Applied:
    """What :func:`apply_worker_confinement` could enforce on this kernel."""

    landlock_abi: int  # 0: no Landlock (files are guarded by the sandbox's checks alone)
    files: bool
    tcp: bool
    seccomp: bool


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 when it has none (too old, turned off, or no
    Linux at all)."""
    if not LINUX:
        return 0
    abi = _libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0),
                        ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(abi), 0)


def shortfall() -> str | None:
    """One sentence on what this kernel cannot confine, or None when it confines all."""
    abi = landlock_abi()
    if not LINUX:
        return ("Sandboxed workers are confined by jqmagic's own checks alone on "
                f"{platform.system()}: the kernel confinement (Landlock, seccomp) is Linux's.")
    if abi == 0:
        return ("This kernel has no Landlock (Linux 5.13+ with landlock among its LSMs): "
                "sandboxed workers are confined by jqmagic's own file checks, seccomp (no "
                "sockets), a scrubbed environment and no jq library path.")
    if abi < 4:
        return (f"This kernel's Landlock ABI is {abi}: files are confined, TCP only by "
                "seccomp (no sockets).")
    return None


_said = False


def shortfall_once() -> str | None:
    """:func:`shortfall`, the first time this process asks only (say it once, e.g. when
    the first sandboxed worker starts)."""
    global _said
    if _said:
        return None
    _said = True
    return shortfall()


def apply_worker_confinement(policy: Policy) -> Applied:
    """Confine this process (and every process it starts) to ``policy``, for good.

    Call it once, at the start of a sandboxed worker, before it reads any request.
    ``PR_SET_NO_NEW_PRIVS`` is set first (no set-uid program regains rights). Off Linux,
    nothing is applied (see :func:`shortfall`).
    """
    if not LINUX:
        return Applied(0, files=False, tcp=False, seccomp=False)
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    abi = landlock_abi()
    try:
        if abi:
            _landlock(policy, abi)
    except OSError:  # refused (e.g. a container's own seccomp): the checks stand alone
        abi = 0
    try:
        filtered = not policy.network and _deny_sockets()
    except OSError:
        filtered = False
    return Applied(abi, files=abi > 0, tcp=abi >= 4 and not policy.network, seccomp=filtered)


def start_worker(parent: int | None = None) -> Applied | None:
    """What a worker process calls first, before it reads a request: die with ``parent``
    (the supervisor's pid), and, when the sandbox is on, confine itself for good to
    :meth:`Policy.for_worker` (the roots and payload store as its environment pins them,
    :func:`sandbox.worker_environment`; its scratch folder is ``$TMPDIR``)."""
    die_with_parent(parent)
    if not sandbox.enabled():
        return None
    scratch = os.environ.get("TMPDIR") or tempfile.mkdtemp(prefix="jqmagic-worker-")
    os.environ["TMPDIR"] = tempfile.tempdir = scratch  # never the whole of /tmp
    return apply_worker_confinement(Policy.for_worker(scratch))


def _landlock(policy: Policy, abi: int) -> None:
    handled = _FS_BY_ABI[max(a for a in _FS_BY_ABI if a <= abi)]
    attr = _RulesetAttr(handled, _NET_TCP if abi >= 4 and not policy.network else 0,
                        _SCOPES if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = _syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                       ctypes.c_uint32(0))
    try:
        rules = [(p, READ) for p in policy.read] + [(p, RUNTIME) for p in policy.runtime] + \
            [(p, WRITE) for p in policy.write] + \
            [(p, WRITE & ~READ_DIR) for p in policy.unlisted] + \
            [(d, READ_FILE | WRITE_FILE | IOCTL_DEV) for d in _DEVICES]
        for path, rights in rules:
            _allow(ruleset, path, rights & handled)
        _syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)


def _allow(ruleset: int, path: str, rights: int) -> None:
    """A rule: ``rights`` beneath ``path`` (skipped when it does not exist)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= _FILE_RIGHTS
        beneath = _PathBeneath(rights, fd)
        _syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH),
                 ctypes.byref(beneath), ctypes.c_uint32(0))
    finally:
        os.close(fd)


def _deny_sockets() -> bool:
    """A seccomp filter: ``socket()`` and ``io_uring_setup()`` fail with EACCES (pipes and
    ``socketpair`` still work), and so does any call of another architecture's ABI.
    False on an architecture it is not written for."""
    known = _ARCHES.get(platform.machine())
    if known is None:
        return False
    arch, socket_nr, uring_nr = known
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, refuse = 0x7FFF0000, 0x00050000 | 13  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO|EACCES
    program = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, refuse),
               (ld, 0, 0, 0), (jge, 3, 0, 0x40000000), (jeq, 2, 0, socket_nr),
               (jeq, 1, 0, uring_nr), (ret, 0, 0, allow), (ret, 0, 0, refuse)]
    filters = (_SockFilter * len(program))(*(_SockFilter(*op) for op in program))
    fprog = _SockFprog(len(program), filters)
    if _libc.prctl(PR_SET_SECCOMP, 2, ctypes.addressof(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp: " + os.strerror(ctypes.get_errno()))
    return True


def die_with_parent(parent: int | None = None) -> None:
    """SIGKILL this process when its parent ends, whatever holds the GIL here.

    The kernel sends it when the *thread* that started this process ends: start workers
    with :func:`popen` (from a thread that lives as long as the caller). ``parent``: the
    pid that started it; if that one is already gone, this process ends now. Off Linux,
    the worker's own watch on its caller is all there is.
    """
    if not LINUX:
        return
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


_spawns: queue.SimpleQueue[tuple[tuple, dict, queue.SimpleQueue]] = queue.SimpleQueue()
_spawner: threading.Thread | None = None
_spawner_lock = threading.Lock()


def popen(*args: Any, **kwargs: Any) -> subprocess.Popen:
    """``subprocess.Popen(*args, **kwargs)``, started from one thread that lasts as long as
    this process, so a child that calls :func:`die_with_parent` dies with this process,
    not with whichever short-lived thread asked for it."""
    global _spawner
    with _spawner_lock:
        if _spawner is None or not _spawner.is_alive():
            _spawner = threading.Thread(target=_spawn_forever, name="jqmagic-spawner",
                                        daemon=True)
            _spawner.start()
    answer: queue.SimpleQueue = queue.SimpleQueue()
    _spawns.put((args, kwargs, answer))
    started = answer.get()
    if isinstance(started, BaseException):
        raise started
    return started


def _spawn_forever() -> None:
    while True:
        args, kwargs, answer = _spawns.get()
        try:
            answer.put(subprocess.Popen(*args, **kwargs))
        except BaseException as exc:  # handed to the asking thread, raised there
            answer.put(exc)


def _prctl(option: int, value: int) -> None:
    if _libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}): {os.strerror(ctypes.get_errno())}")


def _syscall(number: int, *args: Any) -> int:
    result = _libc.syscall(number, *args)
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"landlock syscall {number}: {os.strerror(errno)}")
    return int(result)
