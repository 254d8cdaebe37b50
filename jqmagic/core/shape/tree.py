"""A shape as an indented text tree (names, types, array lengths, key presence): what
``print(shape)`` shows in a terminal and the notebook shows in a cell."""

from __future__ import annotations

import json

from jqmagic.core.words import key_label

TREE_LINES = 300


def shape_tree(result) -> str:
    """A shape as an indented text tree: names, types, array lengths and key presence."""
    if result.node is None or result.format != "shape":
        return result.text
    lines: list[str] = []
    _tree_lines(result.node, result.jq_path, result.depth, 0, 0, lines)
    if len(lines) > TREE_LINES:
        lines[TREE_LINES:] = [f"... {len(lines) - TREE_LINES:,} more lines: inspect a deeper "
                              "--path or lower --depth"]
    profiles = result.value.get("profiles") if isinstance(result.value, dict) else None
    if profiles:
        lines += ["", "Profiles:"] + [_profile_line(p, s) for p, s in profiles.items()]
    return "\n".join(lines)


def _tree_lines(node, name: str, depth: int, indent: int, of: int, lines: list[str]) -> None:
    if len(lines) > TREE_LINES:
        return
    label = f"{'  ' * indent}{name}  {node.type_str()}"
    if node.len_max is not None:
        low, high = node.len_min, node.len_max
        label += f" [{high}]" if low == high else f" [{low}..{high}]"
    if node.keys is not None:
        n = len(node.keys) + node.extra_count
        label += f" {{{n} key{'s' * (n != 1)}}}"
    if of and node.count < of:
        label += f"  ({node.count}/{of})"
    lines.append(label)
    if node.keys and depth > 0:
        for key, child in list(node.keys.items())[:100]:
            _tree_lines(child, key_label(key), depth - 1, indent + 1, node.objects, lines)
        if len(node.keys) > 100 or node.extra is not None:
            more = len(node.keys) - 100 + node.extra_count
            lines.append(f"{'  ' * (indent + 1)}... {max(more, node.extra_count):,} more keys")
    if node.items is not None and node.items.count:
        _tree_lines(node.items, "[]", depth, indent + 1, 0, lines)


def _profile_line(path: str, stats: dict) -> str:
    parts = [path, stats.get("types", "")]
    for name in ("count", "missing", "null", "distinct", "min", "max"):
        if name in stats:
            parts.append(f"{name} {json.dumps(stats[name])}")
    if "minLength" in stats:
        parts.append(f"length {stats['minLength']}..{stats['maxLength']}")
    if stats.get("samples"):
        parts.append("samples " + ", ".join(json.dumps(s, ensure_ascii=False)
                                            for s in stats["samples"]))
    return "  ".join(parts)
