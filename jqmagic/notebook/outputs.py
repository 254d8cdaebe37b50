"""The magics' plain-text outputs: ``--to yaml`` and ``--to lines`` forms of values, and
:class:`Text`, plain text shown within the same bound as every result."""

from __future__ import annotations

import json
from typing import Any


def yaml_text(values: list[Any]) -> str:
    """The values as a YAML stream, one document each (keys in their order; a string
    quoted where YAML 1.1 or 1.2 would read it as something else)."""
    import yaml  # PyYAML: imported by the outputs that need it

    from jqmagic.core.sources.yamlschema import safe_dumper

    return "---\n".join(yaml.dump(v, Dumper=safe_dumper(), sort_keys=False,
                                  allow_unicode=True) for v in values)


def lines_text(values: list[Any]) -> str:
    """One line per value: a string as it is, anything else as its JSON."""
    return "\n".join(v if isinstance(v, str) else json.dumps(v) for v in values)


class Text:
    """Plain text with its truncation line, bounded like every other output."""

    def __init__(self, text: str, message: str = ""):
        self.text, self.message = text, message

    def _repr_mimebundle_(self, include=None, exclude=None):
        from jqmagic.notebook.display import bounded_text

        return {"text/plain": bounded_text(self.text, self.message)}

    def __repr__(self) -> str:
        return self.text
