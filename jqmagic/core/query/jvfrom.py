"""The values the fast path holds (orjson's, of a file it parsed) made into libjq's, in C
(``_jvbuild``): a question the fast path declines over a file it holds starts from them,
without libjq's own parse of the file (2-5x orjson's, and twice the memory for a while).

Only where the jvs are what libjq's parse would give: the file's number literals all print
as their doubles do (no long, odd, whole or negative-zero literal, :mod:`.literalfacts`),
and every value is one ``_jvbuild`` makes exactly (integers within 2^53, UTF-8 strings).
"""

from __future__ import annotations

import ctypes
from typing import Any

from jqmagic.core.query import libjq

try:
    from jqmagic.core.query import _jvbuild
except ImportError:  # built without a C compiler: libjq parses the file itself
    _jvbuild = None

_FUNCTIONS = ("jv_null", "jv_true", "jv_false", "jv_number", "jv_string_sized",
              "jv_array_sized", "jv_array_append", "jv_object", "jv_object_set", "jv_free")


def _configure() -> None:
    lib = libjq._lib  # noqa: SLF001 - the library ctypes loaded, once
    _jvbuild.configure(*(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
                         for name in _FUNCTIONS))


if _jvbuild is not None:
    assert ctypes.sizeof(libjq.jv) == _jvbuild.JV_SIZE, "_jvbuild.c's jv differs from libjq's"
    _configure()


def exact(literals: Any) -> bool:
    """Whether values with these literal facts are made exactly (see the module)."""
    try:
        return _jvbuild is not None and not literals.facts
    except Exception:  # noqa: BLE001 - facts that could not be learnt: parse as before
        return False


def values(held: list[Any]) -> list | None:
    """``held`` made into owned jvs (free them with :func:`libjq.free_values`); None where
    one cannot be made exactly."""
    try:
        packed = _jvbuild.to_jvs(held)
    except (ValueError, UnicodeError, RecursionError):
        return None
    return list((libjq.jv * len(held)).from_buffer_copy(packed))
