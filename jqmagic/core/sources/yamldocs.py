"""YAML streams read with the safe loader, as JSON holds them, with an alias-bomb guard."""

from __future__ import annotations

import json
from typing import Any

from jqmagic.core.errors import JqMagicError, caret_excerpt, too_deep
from jqmagic.core.sources.formats import dumps


def parse_yaml(text: str, label: str = "<input>") -> list[Any]:
    """Every document of a YAML stream, with the safe loader; INVALID_YAML on errors.

    Built straight from libyaml's events (``yamlbuild``, about 2-3x PyYAML's C loader)
    when the stream holds only what that builder knows; else, and for every error, by the
    safe loader itself, which gives the same values. An alias is its anchor's own object
    there (the values are for reading: copy before changing one).
    """
    from jqmagic.core.sources.yamlbuild import Unusual, build_documents

    try:
        return build_documents(text)
    except Unusual:
        return [value for _, value in compose_yaml(text, label)]


def compose_yaml(text: str, label: str = "<input>", loader: Any = None) -> list[tuple[Any, Any]]:
    """Each document of a YAML stream as (its node graph, its value as JSON holds it), read
    by ``loader`` (a class; the core schema's safe loader by default: ``yamlschema``);
    INVALID_YAML on errors."""
    import yaml

    from jqmagic.core.sources.yamlschema import TOO_LONG, safe_loader

    loader = (loader or safe_loader())(text)
    try:
        documents = []
        while loader.check_node():
            node = loader.get_node()
            _check_alias_expansion(node, label)
            # as JSON holds it: keys as text ({1: x} -> {"1": x}), dates as ISO text
            documents.append((node, json.loads(dumps(loader.construct_document(node)))))
        return documents
    except RecursionError:
        raise too_deep(label, "Flatten the YAML, or convert it to JSON for jq.") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if isinstance(exc, yaml.constructor.ConstructorError) and mark is not None:
            hint = "A key that is a list or a mapping has no JSON form (JSON keys are " \
                "strings): write the key as a string." if "unhashable key" in problem else \
                "Quote it to read it as a string, or convert the file to JSON: jq keeps " \
                "every digit of a JSON number." if TOO_LONG in problem else \
                "YAML is read with the safe loader: tags that build Python objects are " \
                "refused; remove the tag."
            raise JqMagicError("INVALID_YAML", f"{label}, line {mark.line + 1}: {problem}",
                               hint, caret_excerpt(text, mark.line + 1, mark.column + 1)
                               ) from None
        if mark is None:
            raise JqMagicError("INVALID_YAML", f"{label}: {problem}",
                               "Check the YAML syntax.") from None
        raise JqMagicError(
            "INVALID_YAML", f"{label}, line {mark.line + 1}, column {mark.column + 1}: {problem}",
            "Check the indentation and quoting on that line.",
            caret_excerpt(text, mark.line + 1, mark.column + 1)) from None
    finally:
        loader.dispose()


def _check_alias_expansion(root: Any, label: str) -> None:
    """Refuse alias bombs ("billion laughs") and cycles before anything is constructed.

    Counts the nodes the document would have once every alias is expanded, without
    expanding them; a document that grows more than tenfold (and past 100k nodes)
    through aliases is refused.
    """
    expanded: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in expanded:
            continue
        children = _yaml_children(node)
        if children_done:
            open_nodes.discard(key)
            expanded[key] = 1 + sum(expanded[id(c)] for c in children)
            continue
        if key in open_nodes:
            raise JqMagicError("INVALID_YAML", f"{label}: an alias refers to itself (a cycle).",
                               "JSON cannot hold cycles; remove the recursive alias.")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in expanded)
    total = expanded[id(root)]
    if total > max(10 * len(expanded), 100_000):
        raise JqMagicError(
            "INVALID_YAML", f"{label}: aliases expand {len(expanded):,} nodes into {total:,} "
            "(an alias bomb?); refused.", "Remove the nested aliases (&anchor / *alias).")


def _yaml_children(node: Any) -> list[Any]:
    value = node.value
    if isinstance(value, list):
        if value and isinstance(value[0], tuple):  # a mapping's (key, value) pairs
            return [part for pair in value for part in pair]
        return value
    return []

