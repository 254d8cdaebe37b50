"""The settings a :class:`jqmagic.core.settings.using` block puts in force, per thread and
per asyncio task: a module of its own, imported by the first ``using`` (the command line
never scopes, and contextvars is an extension module to load)."""

from contextvars import ContextVar

scoped: ContextVar = ContextVar("settings", default=None)
