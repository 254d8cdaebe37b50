"""jq's ``test`` answered by libjq itself, for the subjects the fast path's Python regex
may match differently from Oniguruma (a letter Python folds otherwise under ``i``: final
sigma, ligatures; a class escape on non-ASCII text; an anchor before a newline). The fast
path asks here instead of handing the whole question to libjq (:data:`.regex.ORACLE`)."""

from __future__ import annotations

from functools import lru_cache

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.query import libjq

_KIND_FALSE, _KIND_TRUE = 2, 3


@lru_cache(maxsize=32)
def _program(pattern: str, flags: str | None) -> libjq.Program:
    if flags is None:
        return libjq.compile_program("test($p)", {"p": pattern})
    return libjq.compile_program("test($p; $f)", {"p": pattern, "f": flags})


@lru_cache(maxsize=1 << 16)
def test(pattern: str, flags: str | None, subject: str) -> bool:
    """``subject | test(pattern; flags)`` as libjq 1.8.2 answers it (NotMine when it
    raises: the whole question is then libjq's, which words the error); a subject asked
    before is answered from memory (names repeat down a log: a call to libjq costs
    50-80 µs)."""
    program = _program(pattern, flags)
    try:
        found = list(libjq.results(program, libjq._string(subject)))  # noqa: SLF001
    except (libjq.RunError, libjq.Halt) as exc:
        raise NotMine("a pattern libjq refuses") from exc
    kinds = [libjq._lib.jv_get_kind(value) for value in found]  # noqa: SLF001
    for value in found:
        libjq._lib.jv_free(value)  # noqa: SLF001
    if kinds not in ([_KIND_TRUE], [_KIND_FALSE]):
        raise NotMine("test gave no boolean")
    return kinds == [_KIND_TRUE]
