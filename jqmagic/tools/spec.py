"""The mark that makes a handler a tool: its options, read by the registry's table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def tool(**options: Any) -> Callable[[Callable[..., dict]], Callable[..., dict]]:
    """Mark the decorated handler as a tool with ``options`` (see
    :class:`jqmagic.tools.registry.Tool`); the registry lists it by its table."""

    def mark(handler: Callable[..., dict]) -> Callable[..., dict]:
        handler.tool_options = options  # type: ignore[attr-defined]
        return handler

    return mark
