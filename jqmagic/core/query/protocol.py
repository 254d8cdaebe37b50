"""The typed protocol between the supervisor (the caller's side) and the worker process.

Every frame is an 8-byte little-endian length, then the bytes. The caller sends one
:class:`QueryRequest` (or a :class:`Control` message); the worker answers with any number of
:class:`Event` frames (progress: the program's clock) and :class:`Chunk` frames (result texts,
as they are produced), then exactly one :class:`End`. While a query runs the caller may send
``Control("stop")``: the worker stops evaluating at its next chunk and ends with
``End(stopped=True)``. Each type has ``to_wire`` / ``from_wire``; nothing else builds a frame.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import re
import struct
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, BinaryIO

from jqmagic.core import sources
from jqmagic.core.options import Formats, JsonText, Source
from jqmagic.core.query.texts import Texts
from jqmagic.core.sources.formats import ValueText, value_text

_LENGTH = struct.Struct("<Q")

# ---------------------------------------------------------------- frames


def write_frame(stream: BinaryIO, data: bytes) -> None:
    if len(data) < 65536:  # one write for a small frame
        _write_all(stream, _LENGTH.pack(len(data)) + data)
    else:
        _write_all(stream, _LENGTH.pack(len(data)))
        _write_all(stream, data)


def _write_all(stream: BinaryIO, data: bytes) -> None:
    """Every byte of ``data`` (an unbuffered pipe may take fewer at a time)."""
    view = memoryview(data)
    while view:
        written = stream.write(view)
        view = view[len(view) if written is None else written:]


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_frame(stream: BinaryIO) -> bytes:
    (size,) = _LENGTH.unpack(_read_exact(stream, _LENGTH.size))
    return _read_exact(stream, size)


def _shallow(message: Any) -> dict[str, Any]:
    """A message's fields as a dict, its nested option types as dicts too; values (a
    source's Python value, however deep) as they are (``asdict`` would copy them)."""
    return {f.name: _shallow(v) if is_dataclass(v := getattr(message, f.name)) else v
            for f in fields(message)}


def _dumps(data: dict[str, Any]) -> bytes:
    """JSON as a Python value source is written (INVALID_ARGUMENT for what is not JSON)."""
    return sources.dumps(data).encode("utf-8", "surrogatepass")


def _loads(data: bytes) -> dict[str, Any]:
    return json.loads(data.decode("utf-8", "surrogatepass"))


_NAMED = "\0fs:"
"""A name whose bytes are not UTF-8 (``os.fsdecode``'s surrogate escapes) crosses as its
bytes in hex after this (no path holds a NUL): JSON as values are written would make each
escape a U+FFFD, another file's name."""
_VALUES = frozenset({"args", "positional", "json_args"})
"""A request's values (and a source's text or value, not a file's name): their escapes are
U+FFFD, as jq reads bytes that are not UTF-8."""
_ESCAPE = re.compile("[\udc80-\udcff]")


def _names_out(value: Any) -> Any:
    """``value`` with each string holding surrogate escapes as :data:`_NAMED` bytes."""
    if type(value) is str:
        try:
            return _NAMED + os.fsencode(value).hex() if _escaped(value) else value
        except UnicodeEncodeError:  # a lone surrogate no name holds: a value's
            return value
    if type(value) is dict:
        values = _VALUES if value.get("kind", "file") == "file" else _VALUES | {"spec"}
        return {k: v if k in values else _names_out(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return [_names_out(v) for v in value]
    return value


def _names_in(value: Any) -> Any:
    """:func:`_names_out` undone."""
    if type(value) is str:
        return os.fsdecode(bytes.fromhex(value[len(_NAMED):])) \
            if value.startswith(_NAMED) else value
    if type(value) is dict:
        return {k: _names_in(v) for k, v in value.items()}
    if type(value) is list:
        return [_names_in(v) for v in value]
    return value


def _escaped(text: str) -> bool:
    return not text.isascii() and _ESCAPE.search(text) is not None


# ---------------------------------------------------------------- the request


@dataclass(frozen=True)
class SourceSpec:
    """The source as the worker reads it (paths are the caller's, read from its cwd)."""

    kind: str
    spec: Any
    formats: dict[str, Any]

    @classmethod
    def of(cls, source: Source) -> SourceSpec:
        return cls(source.kind, source.spec, vars(source.formats))

    def source(self) -> Source:
        return Source(self.kind, self.spec, Formats(**self.formats))


@dataclass(frozen=True)
class RunSpec:
    """How the program runs (jq's -s, -n, -R, --seq, --stream; the cache, the clock)."""

    slurp: bool = False
    null_input: bool = False
    raw_input: bool = False
    timeout: float | None = None  # None: no limit
    library_paths: tuple[str, ...] = ()
    program_origin: str = ""  # jq's PROGRAM_ORIGIN ("": the working folder)
    cache: bool = True
    stream_eval: bool = False
    whole_files: bool = False  # a big file no streamed form answers: read whole, not TOO_LARGE
    stream_events: bool = False
    stream_errors: bool = False
    seq: bool = False


@dataclass(frozen=True)
class Dump:
    """jq's -a and -C, and the colours ``JQ_COLORS`` names."""

    ascii: bool = False
    color: bool = False
    colors: str | None = None


@dataclass(frozen=True)
class Caller:
    """What the worker takes from its caller so that paths and limits read as there."""

    settings: dict[str, Any] = field(default_factory=dict)
    cwd: str = ""
    home: str = ""
    payload_dir: str = ""


@dataclass(frozen=True)
class QueryRequest:
    """One query for the worker. ``keep``: how many result texts come back (None: all of
    them, as they are produced); the rest go to the ``spill`` file (None: only counted)."""

    program: str
    source: SourceSpec
    run: RunSpec = field(default_factory=RunSpec)
    args: dict[str, Any] = field(default_factory=dict)
    json_args: dict[str, str] = field(default_factory=dict)  # --argjson: JSON text as given
    layout: dict[str, Any] = field(default_factory=dict)  # indent, compact, sort_keys, tab
    dump: Dump = field(default_factory=Dump)
    positional: tuple[Any, ...] = ()
    json_positional: bool = False  # positional holds each value's JSON text (--jsonargs)
    keep: int | None = None
    spill: str | None = None
    caller: Caller = field(default_factory=Caller)
    ranges: tuple[tuple[str, int, int], ...] = ()  # byte ranges of JSON Lines files

    def to_wire(self) -> bytes:
        head = {"type": "query", **_shallow(self)}
        if self.source.kind != "value":
            return _dumps(_names_out(head))
        # A Python value: its JSON text after the header and a NUL (JSON holds none),
        # written by orjson where exact; the worker keeps its tree by the text's digest.
        spec = self.source.spec
        text = spec if isinstance(spec, ValueText) else value_text(spec)
        head["source"] = {**head["source"], "spec": {"plain": text.plain}}
        return _dumps(_names_out(head)) + b"\0" + text.data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QueryRequest:
        data = {k: v for k, v in data.items() if k != "type"}
        run = data.get("run", {})
        return cls(**{
            **data,
            "source": SourceSpec(**data["source"]),
            "run": RunSpec(**{**run, "library_paths": tuple(run.get("library_paths") or ())}),
            "dump": Dump(**data.get("dump", {})),
            "caller": Caller(**data.get("caller", {})),
            "positional": tuple(JsonText(v) if data.get("json_positional") else v
                                for v in data.get("positional", ())),
            "ranges": tuple(tuple(r) for r in data.get("ranges", ())),
        })


@dataclass(frozen=True)
class Call:
    """A core function run in the worker, where reading a whole file costs nothing but
    the worker (a shape, a hint): its name among the worker's calls, its keywords."""

    name: str
    kwargs: dict[str, Any]
    caller: Caller = field(default_factory=Caller)

    def to_wire(self) -> bytes:
        return _dumps(_names_out({"type": "call", **_shallow(self)}))


@dataclass(frozen=True)
class Control:
    """A message that is not a query: ``clear_cache`` (forget parsed documents) or ``stop``
    (end the running query at its next chunk)."""

    op: str

    def to_wire(self) -> bytes:
        return _dumps({"type": "control", "op": self.op})


def read_request(data: bytes) -> QueryRequest | Call | Control:
    """A frame the caller sent, as its type."""
    head, nul, value = data.partition(b"\0")
    message = _names_in(_loads(head))
    if message.get("type") == "control":
        return Control(message["op"])
    if message.get("type") == "call":
        return Call(message["name"], message["kwargs"], Caller(**message["caller"]))
    if nul:
        message["source"]["spec"] = ValueText(value, message["source"]["spec"]["plain"])
    return QueryRequest.from_dict(message)


# ---------------------------------------------------------------- a call's answer

_ANSWER_TYPES = {
    ("jqmagic.core.shape.infer", "ShapeResult"), ("jqmagic.core.shape.node", "Node"),
    ("jqmagic.core.shape.node", "Limits"), ("jqmagic.core.shape.profile", "Profile"),
    ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "complex"),
}


class _AnswerUnpickler(pickle.Unpickler):
    """Reads a call's answer; only the plain data types above can be built from it, so a
    worker that went wrong cannot make this process run anything (pickle's documented way
    of restricting globals)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ANSWER_TYPES:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a call's answer may not hold {module}.{name}")


def answer_bytes(value: Any) -> bytes:
    """The worker's side: a call's answer as bytes."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def answer_value(data: bytes) -> Any:
    """The caller's side: the answer, built from the allowed types only."""
    return _AnswerUnpickler(io.BytesIO(data)).load()


# What the worker must know of the caller's settings (the sandbox and the limits).
WORKER_SETTINGS = ("sandbox", "allowed_roots", "exec_allowed", "exec_timeout",
                   "exec_max_bytes", "doc_cache_bytes", "fast_path")


def caller_settings(names: tuple[str, ...]) -> Caller:
    """This process's settings named ``names``, working directory, home and payload store."""
    from jqmagic.core import payloads
    from jqmagic.core.settings import settings

    return Caller({name: getattr(settings, name) for name in names}, os.getcwd(),
                  os.path.expanduser("~"), str(payloads.payload_dir()))


# ---------------------------------------------------------------- the replies


@dataclass(frozen=True)
class Event:
    """Progress: ``begin`` (the program's clock starts), ``parsing`` (it stops while a file
    is parsed), ``parsed`` (it starts again)."""

    event: str
    label: str = ""
    bytes: int = 0
    format: str = "json"

    def to_wire(self) -> bytes:
        return _dumps({"type": "event", **_shallow(self)})

    def as_dict(self) -> dict[str, Any]:
        return _shallow(self)


class Chunk(Texts):
    """Result texts, in order, as the worker produced them. On the wire: their count in
    the header; then their lengths (8-byte integers in this machine's order: the worker is
    a process of this machine) and :meth:`lines`, which a printer of one result a line
    writes as it came."""

    __slots__ = ()

    def header(self) -> bytes:
        return _dumps({"type": "chunk", "count": len(self)})

    def body(self) -> bytes:
        return self.sizes().tobytes() + self.lines()

    @classmethod
    def received(cls, count: int, body: bytes) -> Chunk:
        return cls.of_lines(body[8 * count:], body[:8 * count])


@dataclass
class End:
    """How a query ended: its total count, its error (as ``JqMagicError.to_wire`` gives
    it), whether the results past the kept ones were spilled to the payload file, the
    program's messages (debug, stderr), and the engine that answered."""

    error: dict[str, Any] | None = None
    total: int = 0
    spilled: bool = False
    spill_error: str | None = None
    messages: list[str] = field(default_factory=list)
    engine: str | None = None
    halted: bool = False  # the program stopped itself with halt / halt_error
    halt_said: str | None = None  # what jq's main.c writes on stderr for its halt_error
    input_errors: list[list[Any]] | None = None  # each input's: [messages before it, error]
    stopped: bool = False  # the caller asked it to stop
    retry: bool = False  # --parallel: only the whole files can tell what went wrong
    run_error: list[Any] | None = None  # [first message, inputs failed, the last one?]
    last_number: bool = False  # the last result a number: printed as null, it is NaN (-e)

    def to_wire(self) -> bytes:
        return _dumps({"type": "end", **_shallow(self)})

    @classmethod
    def failed(cls, error: dict[str, Any], total: int = 0,
               messages: list[str] | None = None) -> End:
        return cls(error=error, total=total, messages=messages or [])


Reply = Event | Chunk | End


def read_reply(stream: BinaryIO) -> Reply:
    """The next reply frame (a chunk's texts read with it)."""
    message = _loads(read_frame(stream))
    kind = message.pop("type")
    if kind == "chunk":
        return Chunk.received(message["count"], read_frame(stream))
    if kind == "event":
        return Event(**{k: v for k, v in message.items() if k in _EVENT_FIELDS})
    return End(**message)


_EVENT_FIELDS = {f.name for f in fields(Event)}


def write_chunk(stream: BinaryIO, chunk: Chunk) -> None:
    write_frame(stream, chunk.header())
    write_frame(stream, chunk.body())
