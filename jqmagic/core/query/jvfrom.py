"""The values the fast path holds (orjson's, of a file it parsed) made into libjq's, in C
(``_jvbuild``): a question the fast path declines over a file it holds starts from them,
without libjq's own parse of the file (2-5x orjson's, and twice the memory for a while).

Only where the jvs are what libjq's parse would give: the texts of the file's odd number
literals are known (``Literals.odd_texts``: ``1.50``, ``1E+2``, a fraction of 17 digits;
libjq keeps a literal's text, and ``_jvbuild`` gives each such double its text, and a long
integer its digits), no ``-0`` integer is there (orjson reads it as 0), and every value is
one ``_jvbuild`` makes exactly (UTF-8 strings, no double written two ways). The other way,
a streamed run's outputs are printed in one call (:func:`dumped`).
"""

from __future__ import annotations

import ctypes
from typing import Any

from jqmagic.core.query import libjq

try:
    from jqmagic.core.query import _jvbuild
except ImportError:  # built without a C compiler: libjq parses the file itself
    _jvbuild = None

_FUNCTIONS = ("jv_null", "jv_true", "jv_false", "jv_number", "jv_number_with_literal",
              "jv_string_sized",
              "jv_array_sized", "jv_array_append", "jv_object", "jv_object_set", "jv_free",
              "jv_array_length", "jv_array_get", "jv_dump_string", "jv_string_value",
              "jv_string_length_bytes", "jv_copy")


def _configure() -> None:
    lib = libjq._lib  # noqa: SLF001 - the library ctypes loaded, once
    _jvbuild.configure(*(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
                         for name in _FUNCTIONS))


if _jvbuild is not None and not hasattr(_jvbuild, "dump_items"):
    _jvbuild = None  # an extension built before this module's functions: parse as before
if _jvbuild is not None:
    assert ctypes.sizeof(libjq.jv) == _jvbuild.JV_SIZE, "_jvbuild.c's jv differs from libjq's"
    _configure()


def odd_texts(literals: Any) -> dict | None:
    """The odd literals' texts by double to make values with these literal facts exactly
    (``{}``: none is odd); None where they cannot be (see the module)."""
    try:
        facts = literals.facts
        if _jvbuild is None or "zero" in facts:
            return None
        if "odd" not in facts and "long" not in facts:
            return {}
        return literals.odd_texts  # a long literal among them: its text kept too
    except Exception:  # noqa: BLE001 - facts that could not be learnt: parse as before
        return None


def values(held: list[Any], texts: dict) -> list | None:
    """``held`` made into owned jvs (free them with :func:`libjqinput.free_values`), the odd
    literals' ``texts`` kept; None where one cannot be made exactly."""
    try:
        packed = _jvbuild.to_jvs(held, texts)
    except (ValueError, UnicodeError, RecursionError):
        return None
    return list((libjq.jv * len(held)).from_buffer_copy(packed))


DUMPS = _jvbuild is not None
"""Whether :func:`dumped` is there (the extension was built)."""


def dumped(array: Any, flags: int) -> list[bytes]:
    """jq's text of each item of a jv array (consumed) with dump ``flags``, in one C call
    (a streamed run's outputs: no ctypes round trip each). Needs :data:`DUMPS`."""
    return _jvbuild.dump_items(bytes(array), flags)


def copy(value: Any) -> Any:
    """Another reference to a jv (jv_copy)."""
    return libjq._lib.jv_copy(value)  # noqa: SLF001 - the library ctypes loaded
