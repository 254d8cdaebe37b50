"""The option objects every operation takes, each normalised once: Source, Formats,
PrintOptions and Bounds.

The faces turn their flags into these (see ``jqmagic/flags.py``); the core passes
them along instead of long keyword lists.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.jsonarg import JsonText  # noqa: F401 - re-exported: options' JSON text
from jqmagic.core.words import preview, term, without_lone_surrogates

SOURCE_KINDS = ("file", "text", "value", "exec", "payload")
FORMAT_KEYS = ("jsonl", "yaml", "jsonc")
"""The kinds of source the core reads (a URL is fetched by the face that names it: the
magic turns a JSON answer into text)."""
JSONL_SUFFIXES = {".jsonl", ".ndjson"}
YAML_SUFFIXES = {".yaml", ".yml"}
JSONC_SUFFIXES = {".jsonc"}


@dataclass(frozen=True)
class Formats:
    """How to read text: forced on (True), forced off (False) or by the file's suffix (None)."""

    jsonl: bool | None = None
    yaml: bool | None = None
    jsonc: bool | None = None

    def for_path(self, path: str) -> str:
        """json, jsonl, yaml or jsonc: forced by a flag, else by the file's suffix."""
        forced = self.forced()
        if forced:
            return forced
        suffix = Path(path).suffix.lower()
        if suffix in YAML_SUFFIXES and self.yaml is not False:
            return "yaml"
        if suffix in JSONC_SUFFIXES and self.jsonc is not False:
            return "jsonc"
        if suffix in JSONL_SUFFIXES and self.jsonl is not False:
            return "jsonl"
        return "json"

    def forced(self) -> str | None:
        """The format a flag forces (yaml, jsonc, jsonl in that order), or None."""
        for name in ("yaml", "jsonc", "jsonl"):
            if getattr(self, name):
                return name
        return None

    def for_text(self) -> str:
        """The format of inline text or command output: forced, else JSON (several values
        and JSON Lines are JSON to jq)."""
        return self.forced() or "json"


@dataclass(frozen=True)
class Source:
    """Exactly one place a document comes from, and how to read it.

    ``kind`` is one of :data:`SOURCE_KINDS` (or ``"null"`` for ``-n`` without input);
    ``spec`` is a path, a list of paths or globs, text, a Python value, a command or a
    payload id. Build one with :meth:`of`, the one resolver every face uses.
    """

    kind: str
    spec: Any = None
    formats: Formats = field(default_factory=Formats)

    def to_wire(self) -> dict[str, Any]:
        """As the worker's messages carry it."""
        return {"kind": self.kind, "spec": self.spec, "formats": vars(self.formats)}

    @classmethod
    def from_wire(cls, wire: dict[str, Any]) -> Source:
        return cls(wire["kind"], wire["spec"], Formats(**wire["formats"]))

    @classmethod
    def of(cls, source: Any = None, /, *, formats: Formats | None = None,
           null_input: bool | None = False, **given: Any) -> Source:
        """The one source named by a positional ``source`` or one keyword of
        :data:`SOURCE_KINDS` (``value=None`` is the JSON value null); ``Source("null")``
        when nothing is named under ``null_input``; AMBIGUOUS_SOURCE otherwise (offering
        null input unless ``null_input`` is None: an operation that has none).

        >>> Source.of(file="a.json").kind
        'file'
        """
        if isinstance(source, Source):
            return source
        unknown = set(given) - set(SOURCE_KINDS)
        if unknown:
            raise TypeError(f"unknown source keyword(s): {', '.join(sorted(unknown))}")
        named = {kind: spec for kind, spec in given.items()
                 if spec is not None or kind == "value"}
        if source is not None:
            from jqmagic.core.sources.resolve import classify

            kind, spec = classify(source)
            if kind in named:
                raise JqMagicError("AMBIGUOUS_SOURCE", f"The {kind} source is given twice.",
                                   "Name one source only.")
            named[kind] = spec
        if len(named) > 1:
            raise JqMagicError(
                "AMBIGUOUS_SOURCE", f"Several sources were given ({', '.join(sorted(named))}).",
                "Name exactly one source: a file, inline JSON text, a value, a command or a "
                "payload.")
        formats = formats or Formats()
        if not named:
            if null_input:
                return cls("null", None, formats)
            null = "" if null_input is None else f", or use null input ({term('null_input')})"
            raise JqMagicError("AMBIGUOUS_SOURCE", "No input was given.",
                               "Name a source (a file, inline JSON text, a value, a command "
                               f"or a payload){null}.")
        kind, spec = next(iter(named.items()))
        if kind == "file":
            spec = _paths(spec)
        elif kind in ("text", "exec"):
            spec = _jq_text(spec, kind)
        return cls(kind, spec, formats)

    @property
    def label(self) -> str:
        """How messages name this source."""
        if self.kind == "file":
            return self.spec if isinstance(self.spec, str) else ", ".join(self.spec)
        if self.kind == "exec":
            return f"<exec: {self.spec}>"
        if self.kind == "payload":
            return f"<payload {self.spec}>"
        return f"<{self.kind if self.kind != 'text' else 'input'}>"


def _paths(spec: Any) -> str | list[str]:
    """A path or paths as text; INVALID_ARGUMENT for anything else."""
    try:
        if isinstance(spec, (list, tuple)):
            return [os.fspath(s) for s in spec]
        return os.fspath(spec)
    except TypeError:
        raise JqMagicError("INVALID_ARGUMENT", f"A file source is a path or a list of paths, "
                           f"not {preview(spec)}.", "e.g. file='data.json'.") from None


def _jq_text(spec: Any, kind: str) -> str:
    """Text as jq reads it: bytes decoded as UTF-8 and what is not UTF-8 (bad bytes, lone
    surrogates) replaced by U+FFFD, as jq replaces it."""
    if isinstance(spec, (bytes, bytearray)):
        return bytes(spec).decode("utf-8", "replace")
    if not isinstance(spec, str):
        raise JqMagicError("INVALID_ARGUMENT", f"A {kind} source is text, not "
                           f"{preview(spec)}.", "e.g. text='{\"a\": 1}'." if kind == "text"
                           else "e.g. exec='cat data.json'.")
    return without_lone_surrogates(spec)


def source_from(source: Any, keywords: dict[str, Any], null_input: bool = False) -> Source:
    """The :class:`Source` named by an operation's friendly keywords, which it takes out
    of ``keywords``: ``source`` or one of :data:`SOURCE_KINDS`, and ``jsonl``, ``yaml``,
    ``jsonc`` (``value_given``, once needed for ``value=None``, is taken and ignored)."""
    keywords.pop("value_given", None)
    formats = Formats(**{k: keywords.pop(k) for k in FORMAT_KEYS if k in keywords})
    given = {k: keywords.pop(k) for k in SOURCE_KINDS if k in keywords}
    return Source.of(source, formats=formats, null_input=null_input, **given)


@dataclass(frozen=True)
class PrintOptions:
    """How results are printed, as jq's -r, -c, --tab, --indent and -S set it."""

    raw: bool = False
    compact: bool = False
    indent: int = 2
    tab: bool = False
    sort_keys: bool = False
    ascii: bool = False  # -a: non-ASCII characters as \uXXXX escapes
    color: bool = False  # -C: jq's colours (JQ_COLORS), for a terminal

    def layout(self) -> dict[str, Any]:
        """The layout the printers of both engines take."""
        return {"indent": self.indent, "compact": self.compact, "sort_keys": self.sort_keys,
                "tab": self.tab}

    @property
    def plain(self) -> bool:
        """Whether jqmagic's own printer can print it (no -a, no -C)."""
        return not (self.ascii or self.color)


@dataclass(frozen=True)
class Bounds:
    """How much of a result is shown: results and tokens, unless lifted (``passthrough``)."""

    max_results: int = 100
    max_tokens: int = 50_000
    passthrough: bool = False

    @property
    def max_chars(self) -> int:
        """Characters of text within ``max_tokens`` (about 4 a token, an estimate)."""
        return self.max_tokens * 4

    @classmethod
    def complete(cls) -> Bounds:
        """No bound: every result, every byte."""
        return cls(passthrough=True)

    @classmethod
    def default(cls, max_results: int | None = None, max_tokens: int | None = None,
                passthrough: bool = False) -> Bounds:
        """Bounds from the process-wide settings, with per-call overrides."""
        from jqmagic.core.settings import settings

        return cls(settings.max_results if max_results is None else max_results,
                   settings.max_tokens if max_tokens is None else max_tokens, passthrough)
