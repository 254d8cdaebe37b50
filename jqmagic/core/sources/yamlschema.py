"""YAML 1.2's core schema for PyYAML, whose own resolver is YAML 1.1's.

A plain scalar is null (``null``, ``Null``, ``NULL``, ``~``, nothing), a boolean (``true``,
``True``, ``TRUE`` and the same of false), an integer (``12``, ``0o17``, ``0x1F``), a float
(``1.5``, ``1e3``, ``.inf``, ``.nan``) or else a string, as yq, gojq and GitHub read YAML:
``on``, ``off``, ``yes``, ``no``, ``1_000``, ``1:30`` and dates are strings, ``017`` is
seventeen. Merge keys (``<<``) are kept, as those readers keep them. Explicit tags
(``!!int 1_000``) are still constructed leniently, as PyYAML constructs them.

What is written for others to read (a patched file, a YAML output) is quoted where either
schema reads it as no string: a Kubernetes or Ansible reader (YAML 1.1) must see the same.
PyYAML is imported on first use only.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Hashable
from functools import lru_cache
from typing import Any

STR = "tag:yaml.org,2002:str"
# YAML 1.1's booleans PyYAML's resolver leaves out and go-yaml v2 (Kubernetes' reader) keeps
SHORT_BOOLEANS = frozenset({"y", "Y", "n", "N"})
TOO_LONG = "more digits than Python converts"
_DECIMAL = re.compile(r"[-+]?[0-9]+")
# (tag, pattern, first characters), in the order they are tried: ints before floats
_CORE = [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
     list("-+0123456789")),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
     r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", list("-+.0123456789")),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", ["<"]),
]


@lru_cache(maxsize=1)
def resolver() -> type:
    """The core schema's resolver (a class, as PyYAML's loaders mix it in)."""
    from yaml.resolver import BaseResolver

    class CoreResolver(BaseResolver):
        pass

    for tag, pattern, first in _CORE:
        CoreResolver.add_implicit_resolver(tag, re.compile(pattern), first)
    return CoreResolver


@lru_cache(maxsize=1)
def constructor() -> type:
    """The safe constructor with the core schema's integers (``017`` is decimal)."""
    from yaml.constructor import ConstructorError, SafeConstructor
    from yaml.nodes import MappingNode

    class CoreConstructor(SafeConstructor):
        def construct_yaml_int(self, node: Any) -> int:
            text = self.construct_scalar(node)
            try:
                if _DECIMAL.fullmatch(text):
                    return int(text)
                return super().construct_yaml_int(node)  # 0o17, 0x1F; explicit tags' forms
            except ValueError:  # past Python's digits for a decimal (sys.int_max_str_digits)
                raise ConstructorError(None, None, f"an integer of {len(text):,} "
                                       f"characters: {TOO_LONG}", node.start_mark) from None

        def construct_mapping(self, node: Any, deep: bool = False) -> dict:
            """A mapping with its keys as JSON text at once: `true` and `1` (or `1` and
            `1.0`) stay two keys, as JSON writes them, not one Python key."""
            if not isinstance(node, MappingNode):  # `!!map [1]`
                raise ConstructorError(None, None, f"expected a mapping node, but found "
                                       f"{node.id}", node.start_mark)
            self.flatten_mapping(node)
            mapping = {}
            for key_node, value_node in node.value:
                key = self.construct_object(key_node, deep=deep)
                if not isinstance(key, Hashable):
                    raise ConstructorError("while constructing a mapping", node.start_mark,
                                           "found unhashable key", key_node.start_mark)
                mapping[key if type(key) is str else _key_text(key)] = \
                    self.construct_object(value_node, deep=deep)
            return mapping

    CoreConstructor.add_constructor("tag:yaml.org,2002:int",
                                    CoreConstructor.construct_yaml_int)
    return CoreConstructor


@lru_cache(maxsize=1)
def safe_loader() -> type:
    """A safe loader reading the core schema: over libyaml's C parser when there is one."""
    import yaml

    core_constructor, core_resolver = constructor(), resolver()
    try:
        from yaml._yaml import CParser
    except ImportError:  # pragma: no cover - PyYAML without libyaml
        class PyLoader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser,
                       yaml.composer.Composer, core_constructor, core_resolver):
            def __init__(self, stream: str) -> None:
                yaml.reader.Reader.__init__(self, stream)
                yaml.scanner.Scanner.__init__(self)
                yaml.parser.Parser.__init__(self)
                yaml.composer.Composer.__init__(self)
                core_constructor.__init__(self)
                core_resolver.__init__(self)

        return PyLoader

    class CoreLoader(CParser, core_constructor, core_resolver):
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            core_constructor.__init__(self)
            core_resolver.__init__(self)

    return CoreLoader


def _key_text(key: Any) -> str:
    """A key that is no text as JSON text holds it (a date or binary as its value would be)."""
    if isinstance(key, (dt.date, dt.datetime)):
        return key.isoformat()
    if isinstance(key, bytes):
        return key.decode("utf-8", "replace")
    return json.dumps(key)  # null, true, 1, 1.5, Infinity, NaN


def plain_tag(text: str) -> str:
    """The tag the core schema gives ``text`` written as a plain scalar."""
    import yaml

    return resolver()().resolve(yaml.ScalarNode, text, (True, False))


@lru_cache(maxsize=1)
def safe_dumper() -> type:
    """PyYAML's safe dumper, quoting a string that either schema reads as no string
    (``0o17``, ``1e3`` for YAML 1.2 readers; ``on``, ``1_000``, ``y`` for YAML 1.1 ones)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
            tag = super().resolve(kind, value, implicit)
            if kind is yaml.ScalarNode and implicit[0] and tag == STR:
                return "tag:yaml.org,2002:bool" if value in SHORT_BOOLEANS else \
                    plain_tag(value)
            return tag

    return Dumper
