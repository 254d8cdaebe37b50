"""JSON Lines decoded for the field chains a question reads: msgspec's projected decoding.

Each line becomes its value with only the chains asked for (``.type``, ``.actor.login``):
an object on a chain keeps the members the chains go through, a value at the end of a
chain is kept whole, and anything else on the way (a string where ``.actor`` was an object
elsewhere) is kept whole too, so every read of those chains, its errors included, is the
whole value's. The members no chain names are skipped in C, never built (a question about
``.type`` on a 524 MB log builds no 4 GB of dicts).

The values are orjson's, exactly: an integer outside 64 bits (orjson reads it as a float)
or a value nested deeper than :data:`DEPTH` does not fit the projected type, and that line
is read whole by orjson. msgspec reads several values run together on one line
(``truefalse``), which jq refuses: the lines are decoded at once only when every line holds
exactly one value, else line by line.

>>> decode(b'{"type":"Push","actor":{"login":"zoe","id":1},"big":[1]}\\n[1]\\n',
...        frozenset({("type",), ("actor", "login")}))
[{'type': 'Push', 'actor': {'login': 'zoe'}}, [1]]
"""

from __future__ import annotations

import enum
import re
from collections import deque
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from typing import Annotated, Any, TypedDict, Union

import msgspec
import orjson

from jqmagic.core.jqlang import columns, columnsum, dates
from jqmagic.core.jqlang.columns import read_chain
from jqmagic.core.jqlang.errors import NotMine

try:
    from jqmagic.core.query import _jvbuild
except ImportError:  # no C compiler at install: columns are read a name at a time
    _jvbuild = None
columns.C_READ = getattr(_jvbuild, "chain_column", None)  # an older build lacks them
columns.C_OBJECTS = getattr(_jvbuild, "zip_objects", None)
columns.C_JOINED = getattr(_jvbuild, "joined_chains", None)
dates.C_DATES = getattr(_jvbuild, "iso_dates", None)
columnsum.C_GROUPS = getattr(_jvbuild, "group_sums", None)
columnsum.C_PRODUCTS = getattr(_jvbuild, "joined_products", None)
C_LINES = getattr(_jvbuild, "lines_columns", None)
"""``_jvbuild.lines_columns`` where the extension is built: see :func:`whole_values`."""

Chains = frozenset[tuple[str, ...]]

DEPTH = 5
"""Containers below a chain's end nested deeper than this: the line is read by orjson (the
projected type grows as 2 ** DEPTH: 16 ms to build for six chains at 5)."""

_INT = Annotated[int, msgspec.Meta(ge=-(2 ** 63), le=2 ** 63 - 1)]  # larger: orjson reads the line
_BLANK = re.compile(rb"\n[\n \t\r]")  # a blank line, or a line that may start one


@cache
def _leaf(depth: int = 0) -> Any:
    """Any JSON value orjson reads as these Python values, nested at most DEPTH - depth."""
    if depth == DEPTH:
        return Union[_INT, float, str, bool, None]  # noqa: UP007 - a runtime type
    inner = _leaf(depth + 1)
    return Union[_INT, float, str, bool, None, list[inner], dict[str, inner]]  # noqa: UP007


def covers(held: Chains, wanted: Chains) -> bool:
    """Whether a projection of ``held`` reads every chain of ``wanted`` as the whole value
    does (a chain or one of its prefixes is held)."""
    return all(any(chain[:n] in held for n in range(len(chain) + 1)) for chain in wanted)


@lru_cache(maxsize=64)
def _decoder(chains: Chains) -> msgspec.json.Decoder:
    """A decoder of lines projected on ``chains``: TypedDicts along the chains, a whole
    value at each chain's end (None in the tree)."""
    tree: dict = {}
    for chain in sorted(chains, key=len):
        node: dict | None = tree
        for name in chain[:-1]:
            node = node.setdefault(name, {})
            if node is None:  # a prefix is held whole
                break
        else:
            node[chain[-1]] = None
    return msgspec.json.Decoder(_typed(tree, "Row"))


def _typed(tree: dict, name: str) -> Any:
    fields = {key: _leaf() if sub is None else _typed(sub, f"{name}_{i}")
              for i, (key, sub) in enumerate(tree.items())}
    row = TypedDict(name, fields, total=False)  # type: ignore[misc]
    return Union[row, _INT, float, str, bool, None, list[_leaf(1)]]  # noqa: UP007


BLOCK = 1 << 20


def decode(data: bytes, chains: Chains, made: dict[tuple[str, ...], list] | None = None,
           known: LinesKnown | None = None) -> list[Any]:
    """The values of the JSON Lines ``data`` projected on ``chains`` (one value per
    non-blank line, as :func:`.doccache.json_lines` reads them; NotMine where orjson
    refuses a line), decoded a block of lines at a time (:func:`decode_blocks`)."""
    values: list[Any] = []
    for found in decode_blocks(line_blocks(data), chains, made, known):
        values += found
    return values


class LinesKnown(enum.Enum):
    """What is known of the lines of a text before it is decoded."""

    NO_BLANK = "no line is blank or starts with white space (:func:`one_a_line`)"
    ONE_VALUE_EACH = "each holds one value (a file read before, of the same version)"


SAMPLE = 64 << 10
WIDE_FROM = 8 << 20
"""JSON Lines from this size decode at their first read every member their first lines
hold (:func:`widened`)."""


def widened(data: bytes, chains: Chains) -> Chains:
    """``chains`` and every member of the objects on the first lines of ``data`` (its
    first :data:`SAMPLE` bytes), each held whole: what a file's first read decodes, when
    its whole values fit, so that a later question on another member pays no pass over
    the file. Measured on a 60 MB log (306k events, eleven members, CPU): the members asked
    by a first question 0.36 s, every member 1.23 s, while each later question on a member
    not decoded yet paid a pass of 0.4-1.1 s (six of a dozen generated questions did); and
    the first question waits for the file's literal facts, learnt on the other core for
    1.1 s meanwhile. Chains the sample does not hold are decoded as before when asked."""
    if () in chains:
        return chains
    return chains | frozenset((name,) for value in _sampled(data) for name in value)


def _sampled(data: bytes) -> Iterator[dict]:
    """The objects on the first lines of ``data`` (its first :data:`SAMPLE` bytes)."""
    head = data[:SAMPLE]
    for line in head[:head.rfind(b"\n") + 1].split(b"\n"):
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if type(value) is dict:
            yield value


FIRST_COLUMNS = 24
"""At most this many columns made at a first read (beside the chains asked): 8 bytes a
line each, against the 60-200 its values take."""


def sample_chains(data: bytes, chains: Chains) -> Chains:
    """``chains`` and the members of the objects on the first lines of ``data`` (its
    first :data:`SAMPLE` bytes), with their objects' members one level down (``.user``,
    ``.user.name``), :data:`FIRST_COLUMNS` at most: the columns a first read makes."""
    found = dict.fromkeys(chain for chain in chains if chain)
    for value in _sampled(data):
        for name, member in value.items():
            found[(name,)] = None
            if type(member) is dict:
                found.update(dict.fromkeys((name, inner) for inner in member))
    return frozenset(list(found)[:max(FIRST_COLUMNS, len(chains))])


_SKIP = object()  # a blank line, in C_LINES's values: none


def _line_or_skip(line: bytes) -> Any:
    """A line C_LINES leaves to orjson, as :func:`.doccache.json_lines` reads it."""
    if not line.strip():
        return _SKIP
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise NotMine("a line orjson refuses") from exc


def whole_values(data: bytes, chains: Chains, share: bool = False,
                 keep: bool = True) -> tuple[list[Any], int, columns.Made] | None:
    """The whole values of the JSON Lines ``data`` (orjson's, one per non-blank line), how
    many newlines it has, and the columns of ``chains`` (their kinds met) made in the same
    pass, in C (:data:`C_LINES`: each repeated short string or number one object, each
    string of a member with few distinct ones one object for its text, so the columns of
    such members are shared as made; the lines it does not take exactly as orjson read by
    orjson); None without the extension. ``share``: equal short lines are one value (a
    question's rows written with only the members it reads: :mod:`.linespans`); not
    ``keep``: each line's value is let go once its chains are read (None in its place).
    NotMine where orjson refuses a line."""
    if C_LINES is None:
        return None
    order = tuple(chains)
    values, newlines, made, kinds, distinct = C_LINES(data, order, _line_or_skip, _SKIP,
                                                      columns.UNREAD, share, keep)
    return values, newlines, columns.Made(
        zip(order, made, strict=True), kinds=dict(zip(order, kinds, strict=True)),
        distinct={chain: d for chain, d in zip(order, distinct, strict=True) if d >= 0})


def column_lists(chains: Chains) -> dict[tuple[str, ...], list]:
    """An empty column for each chain but the whole value's: :func:`decode_blocks`' and
    :func:`extend`'s ``made``."""
    return {chain: [] for chain in chains if chain}


def decode_blocks(blocks: Iterable[bytes], chains: Chains,
                  made: dict[tuple[str, ...], list] | None = None,
                  known: LinesKnown | None = None) -> Iterator[list[Any]]:
    """The values of each block of whole lines, as :func:`decode` reads them: at once,
    or line by line where a line does not fit the projected type or may be blank.
    ``made``: chains whose columns (:func:`.columns.read_chain`) are appended to, block
    by block while the block's values are fresh in memory; ``known``: what need not be
    checked again (a scan of the text each)."""
    decoder = _decoder(chains)
    for block in blocks:
        found = _at_once(decoder, block, known) if known or one_a_line(block) else None
        if found is None:
            found = [_line(decoder, line) for line in block.split(b"\n") if line.strip()]
        for chain, column in (made or {}).items():
            column += read_chain(found, chain)
        yield found


def _at_once(decoder: msgspec.json.Decoder, block: bytes,
             known: LinesKnown | None) -> list[Any] | None:
    """The values of a block of lines decoded at once, if each line held one."""
    try:
        found = decoder.decode_lines(block)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if known is LinesKnown.ONE_VALUE_EACH:
        return found
    return found if len(found) == block.count(b"\n") + (block[-1:] != b"\n") else None


def one_a_line(data: bytes) -> bool:
    """Whether no line of ``data`` is blank and none starts or ends with white space
    that could be a blank line's (then, where each line holds one value, the values are
    as many as the lines)."""
    return not (data[:1].isspace() or data.endswith((b"\n\n", b" ", b"\t", b"\r")) or
                _BLANK.search(data))


def line_blocks(data: bytes, size: int = BLOCK) -> Iterator[bytes]:
    """``data`` in blocks of whole lines, about ``size`` bytes each."""
    at = 0
    while at < len(data):
        end = data.find(b"\n", at + size)
        end = len(data) if end < 0 else end + 1
        yield data[at:end]
        at = end


def whole_lines(reads: Iterable[bytes]) -> Iterator[bytes]:
    """Blocks read as they come (a file's ``read(n)``), cut after their last newline."""
    rest = b""
    for block in reads:
        cut = block.rfind(b"\n") + 1
        if cut:
            yield rest + block[:cut]
            rest = block[cut:]
        else:
            rest += block
    if rest.strip():
        yield rest


def _line(decoder: msgspec.json.Decoder, line: bytes) -> Any:
    try:
        return decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        try:
            return orjson.loads(line)  # the whole line: a long integer, a deep value
        except orjson.JSONDecodeError as exc:
            raise NotMine("a line orjson refuses") from exc


def extend(values: list[Any], blocks: Iterable[bytes], held: Chains, wanted: Chains,
           made: dict[tuple[str, ...], list] | None = None,
           known: LinesKnown | None = None) -> Chains:
    """``values`` (:func:`decode`'s of the lines in ``blocks`` on ``held``) given the
    chains of ``wanted`` too, in place (a list the columns know by its identity); the
    chains they hold now. The members that gain a chain are decoded again with every
    chain they hold and replace the old ones (each member's value is orjson's either
    way), a block at a time. ``made`` and ``known``: as :func:`decode_blocks`' (a chain
    of ``made`` not decoded again is left out of it)."""
    chains = held | wanted
    names = {chain[0] for chain in wanted if not covers(held, {chain})}
    for chain in [chain for chain in made or () if chain[0] not in names]:
        del made[chain]  # type: ignore[union-attr]
    at = 0
    for fresh in decode_blocks(blocks, frozenset(c for c in chains if c[0] in names), made,
                               known):
        rows = values[at:at + len(fresh)]
        if len(rows) != len(fresh):
            raise NotMine("the file's lines changed under its version")
        try:  # in C while every line is an object (updating one twice changes nothing)
            deque(map(dict.update, rows, fresh), maxlen=0)
        except TypeError:
            for row, more in zip(rows, fresh, strict=True):
                if type(row) is dict:
                    row.update(more)
        at += len(fresh)
    if at != len(values):
        raise NotMine("the file's lines changed under its version")
    return chains


def json_line_batches(blocks: Iterable[bytes]) -> Iterator[list[Any]]:
    """The values of a JSON Lines text given in blocks, a list per block: one value per
    non-blank line (a line orjson refuses, or a value over several lines, is NotMine:
    libjq reads the file)."""
    rest = b""
    for block in blocks:
        lines = (rest + block).split(b"\n")
        rest = lines.pop()
        yield lines_values(lines)
    yield careful_lines([rest])


def lines_values(lines: list[bytes]) -> list[Any]:
    """Each line's value by orjson (:func:`careful_lines` where one is blank or refused)."""
    try:
        return list(map(orjson.loads, lines))
    except orjson.JSONDecodeError:  # blank lines, or one orjson refuses
        return careful_lines(lines)


def careful_lines(lines: list[bytes]) -> list[Any]:
    """Each non-blank line's value by orjson; NotMine where orjson refuses one."""
    values = []
    for line in lines:
        if line.strip():
            try:
                values.append(orjson.loads(line))
            except orjson.JSONDecodeError as exc:
                raise NotMine("a line orjson refuses") from exc
    return values
