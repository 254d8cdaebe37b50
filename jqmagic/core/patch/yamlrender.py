"""New YAML text in a document's own style: its indent unit, how it indents sequences under
a key, its newline; strings plain where YAML reads them back as the same string, else in the
quotes the old value had, or as a literal block where the old one was a block."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.sources import yamlschema

# not printable in YAML (c-printable), so escaped inside double quotes
_UNPRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_PLAIN_START = re.compile(r"[A-Za-z0-9_$(./~^=+<]|[-?:][^\s,\[\]{}]")
_FLOW_SPECIAL = re.compile(r"[,\[\]{}]")


@dataclass(frozen=True)
class YamlStyle:
    """How a document writes YAML."""

    unit: str = "  "  # one indent level
    seq_indent: str = "  "  # a block sequence under a key: "" when "- " lines up with the key
    newline: str = "\n"


def detect(nodes: list[Any], text: str) -> YamlStyle:
    """The indent unit and sequence indentation of the first nested block collections."""
    import yaml

    unit = seq = None
    stack = list(reversed(nodes))
    seen = 0
    while stack and seen < 2000 and (unit is None or seq is None):
        node = stack.pop()
        seen += 1
        if not isinstance(node, yaml.MappingNode) or node.flow_style:
            if isinstance(node, yaml.SequenceNode):
                stack.extend(reversed(node.value))
            continue
        for key, child in node.value:
            if isinstance(child, yaml.MappingNode) and not child.flow_style and unit is None:
                step = child.start_mark.column - key.start_mark.column
                unit = " " * step if step > 0 else None
            if isinstance(child, yaml.SequenceNode) and not child.flow_style and seq is None:
                seq = " " * max(child.start_mark.column - key.start_mark.column, 0)
            stack.append(child)
    unit = unit or "  "
    return YamlStyle(unit, unit if seq is None else seq, "\r\n" if "\r\n" in text else "\n")


def plain_ok(text: str, flow: bool) -> bool:
    """Whether ``text`` can be written unquoted and read back as the same string."""
    import yaml

    if (not text or not _PLAIN_START.match(text) or text != text.strip() or "\n" in text
            or ": " in text or " #" in text or text.endswith(":") or _UNPRINTABLE.search(text)
            or (flow and (_FLOW_SPECIAL.search(text) or ":" in text))):
        return False
    # a string for YAML 1.1 readers (Kubernetes, Ansible: `on` is a boolean) and for 1.2's
    resolved = yaml.resolver.Resolver().resolve(yaml.ScalarNode, text, (True, False))
    return resolved == yamlschema.STR and yamlschema.plain_tag(text) == yamlschema.STR \
        and text not in yamlschema.SHORT_BOOLEANS


def double_quoted(text: str) -> str:
    """A double-quoted YAML string (JSON's escapes, and \\u for what YAML cannot print)."""
    out = json.dumps(text, ensure_ascii=False)
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def string(text: str, flow: bool, old: str | None = None) -> str:
    """A one-line YAML string, in the style ``old`` had (None/'' plain, "'" or '"')."""
    if old == '"':
        return double_quoted(text)
    if old == "'" and "\n" not in text and not _UNPRINTABLE.search(text):
        return "'" + text.replace("'", "''") + "'"
    return text if plain_ok(text, flow) else double_quoted(text)


def literal(text: str, indent: str, newline: str) -> str | None:
    """``text`` as a literal block (``|`` or ``|-``) with lines at ``indent``, or None when
    a literal cannot hold it exactly (trailing blank lines, leading spaces, odd bytes)."""
    if (text.endswith("\n\n") or text.startswith((" ", "\n")) or "\r" in text
            or _UNPRINTABLE.search(text) or not text.strip()):
        return None
    body = text[:-1] if text.endswith("\n") else text
    lines = [indent + line if line else "" for line in body.split("\n")]
    return ("|" if text.endswith("\n") else "|-") + newline + newline.join(lines)


def scalar(value: Any, flow: bool, old: str | None = None) -> str:
    """A scalar's text: null, booleans and numbers as JSON writes them, strings as above."""
    if isinstance(value, str):
        return string(value, flow, old)
    if isinstance(value, float) and not math.isfinite(value):
        raise JqMagicError("INVALID_ARGUMENT", f"The new value {value} is not JSON.",
                           "Use finite numbers.")
    text = json.dumps(value)
    if isinstance(value, float) and "e" in text and "." not in text:
        text = text.replace("e", ".0e")  # YAML 1.1 reads 1e+100 as a string, 1.0e+100 as 1e100
    return text


def key(name: str, flow: bool) -> str:
    return name if plain_ok(name, flow) else double_quoted(name)


def flow(value: Any) -> str:
    """``value`` on one line, in flow style (``{a: 1, b: [x, y]}``)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key(k, True)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value, True)


def is_block(value: Any) -> bool:
    """Whether ``value`` is written as a block (a non-empty mapping or sequence)."""
    return isinstance(value, (dict, list)) and bool(value)


def block(value: Any, indent: str, style: YamlStyle) -> str:
    """A non-empty mapping or sequence in block style, starting where it is placed (after
    ``key:`` + newline + ``indent``, or after ``- ``); its other lines start with ``indent``."""
    lines = []
    for name, item in value.items() if isinstance(value, dict) else ((None, v) for v in value):
        head = f"{key(name, False)}:" if name is not None else "-"
        if name is None and is_block(item):
            lines.append(head + " " + block(item, indent + "  ", style))
        elif is_block(item):
            inner = indent + (style.seq_indent if isinstance(item, list) else style.unit)
            lines.append(head + style.newline + inner + block(item, inner, style))
        else:
            lines.append(head + " " + value_text(item, indent + style.unit, style))
    return (style.newline + indent).join(lines)


def value_text(value: Any, indent: str, style: YamlStyle) -> str:
    """A scalar or empty collection after ``key: `` or ``- ``: one line, or a literal block
    for a string of several lines."""
    if isinstance(value, str) and "\n" in value.rstrip("\n"):
        return literal(value, indent, style.newline) or double_quoted(value)
    return flow(value)
