"""The package's five C parts, all optional (without a C compiler the package installs and
runs on the PyPI binding's libjq, and the command line sends every query to the worker):

- ``jqmagic.core.query._jqmain``: jq's main.c in C, a Python extension: libjq opened by
  path, the program set up (``_jqprogram.c``) and run over its inputs (``_jqmain.c``);
- ``jqmagic.core.query._jvbuild``: Python values made into libjq's in C (``_jvbuild.c``);
- ``jqmagic.core.query.streaming._docscan``: a JSON file's documents as jq's reader meets
  them, in one strict pass (``_docscan.c``), for the command line's streaming pass;
- ``jqmagic.core.patch._spans``: a plain JSON container's members read for ``-i``'s one
  pass (``_spans.c``; else by regular expressions);
- ``jqmagic.core.query._libjq``: libjq 1.8.2 and Oniguruma built with ``-O2`` from
  ``vendor/jq-1.8.2`` by jq's own ``configure`` and ``make`` (no network), linked into one
  shared library that ``_jqmain`` and the worker's ctypes (``core/query/libjq.py``) open;
  it has no Python entry point.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

HERE = Path(__file__).resolve().parent
JQ_SOURCE = HERE / "vendor" / "jq-1.8.2"
LIBJQ = "jqmagic.core.query._libjq"
QUERY = "jqmagic/core/query"  # the C parts' folder
CFLAGS = "-O2 -fPIC -pthread"  # autoconf's -O2, which the binding's build drops
# libjq's calls inside the library bound at build time, not through its PLT, as jq's own
# static binary's are (10-25% of the time of a run in libjq; only jqmagic opens the
# library, by dlopen and ctypes, so nothing needs to interpose on its functions)
DIRECT_CALLS = ("-fno-semantic-interposition", "-Wl,-Bsymbolic")
CONFIGURE = ["./configure", "-q", "--with-oniguruma=builtin", "--disable-docs",
             "--disable-maintainer-mode", "--disable-shared", "--enable-static"]


class BuildExt(build_ext):
    """build_ext, with libjq built by jq's own build instead of from a source list."""

    def build_extension(self, ext: Extension) -> None:
        if ext.name == LIBJQ:
            self._build_libjq(Path(self.get_ext_fullpath(ext.name)))
        else:
            super().build_extension(ext)

    def _build_libjq(self, target: Path) -> None:
        try:
            with tempfile.TemporaryDirectory(prefix="jqmagic-libjq-") as work:
                tree = Path(work) / "jq"
                shutil.copytree(JQ_SOURCE, tree, symlinks=True)
                _same_time(tree)
                compiler = (sysconfig.get_config_var("CC") or "cc").split()
                direct = _accepted(compiler, DIRECT_CALLS, Path(work))
                _run(tree, [*CONFIGURE, f"CFLAGS={' '.join([CFLAGS, *direct[:1]])}"])
                jobs = f"-j{os.cpu_count() or 1}"
                _run(tree, ["make", "-s", jobs, "-C", "vendor/oniguruma/src", "libonig.la"])
                _run(tree, ["make", "-s", jobs, "src/builtin.inc", "src/config_opts.inc",
                            "src/version.h"])
                _run(tree, ["make", "-s", jobs, "libjq.la"])
                built = tree / "libjq-jqmagic.so"
                _run(tree, [*compiler, "-shared", *direct[1:], "-o", str(built),
                            "-Wl,--whole-archive",
                            ".libs/libjq.a", "vendor/oniguruma/src/.libs/libonig.a",
                            "-Wl,--no-whole-archive", "-lm", "-lpthread"])
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(built, target)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise CompileError(f"libjq 1.8.2 was not built ({exc}); the jq binding's "
                               "copy will be used") from exc


def _accepted(compiler: list[str], flags: tuple[str, ...], work: Path) -> tuple[str, ...]:
    """``flags`` if the compiler and linker take them (GCC and Clang with GNU ld, gold or
    lld do), else none: an old toolchain still builds libjq, its calls through the PLT."""
    probe = work / "probe.c"
    probe.write_text("int probe(void) { return 0; }\n")
    try:
        subprocess.run([*compiler, "-shared", "-fPIC", *flags, "-o", str(work / "probe.so"),
                        str(probe)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return ()
    return flags


def _same_time(tree: Path) -> None:
    """Every file of the copy stamped with one time: make then regenerates nothing
    (a checkout's times are in no order, and autoconf's rules would run automake)."""
    stamp = JQ_SOURCE.joinpath("configure").stat().st_mtime
    for folder, _, files in os.walk(tree):
        for name in files:
            os.utime(os.path.join(folder, name), (stamp, stamp), follow_symlinks=False)


def _run(tree: Path, command: list[str]) -> None:
    subprocess.run(command, cwd=tree, check=True, stdout=subprocess.DEVNULL)


setup(
    ext_modules=[
        Extension("jqmagic.core.query._jqmain", ["jqmagic/core/query/_jqmain.c",
                                                  "jqmagic/core/query/_jqprogram.c"],
                  depends=[f"{QUERY}/_jqlib.h", f"{QUERY}/_jv.h"], optional=True),
        Extension("jqmagic.core.query._jvbuild", ["jqmagic/core/query/_jvbuild.c"],
                  depends=[f"{QUERY}/_jv.h", f"{QUERY}/_literalscan.h",
                           f"{QUERY}/_columnread.h", f"{QUERY}/_linesread.h",
                           f"{QUERY}/_linesscalar.h", f"{QUERY}/_linesrows.h",
                           f"{QUERY}/_linespans.h"],
                  optional=True),
        Extension("jqmagic.core.query.streaming._docscan",
                  ["jqmagic/core/query/streaming/_docscan.c"], optional=True),
        Extension("jqmagic.core.patch._spans", ["jqmagic/core/patch/_spans.c"], optional=True),
        Extension(LIBJQ, [], optional=True),
    ],
    cmdclass={"build_ext": BuildExt},
    scripts=["bin/jqmagic"],  # not a console script: pip's launcher imports re
)
