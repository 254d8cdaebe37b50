"""Where a document comes from and how it is read: one :class:`~jqmagic.core.options.Source`,
one reader per format.

- ``resolve``: which kind a bare argument names (file, text or value);
- ``files``: globs, sandboxed opening, UTF-8 reading;
- ``command``: a shell command's output;
- ``formats``: JSON / JSON Lines / JSONC parsing with a caret at errors, value dumping;
- ``yamldocs``: YAML streams with the safe loader;
- ``prepare``: files for libjq; ``load``: Python values for the Python-side engines.
"""

from jqmagic.core.sources.command import run_command
from jqmagic.core.sources.files import (
                                        check_encoding,
                                        open_file,
                                        read_error,
                                        read_text,
                                        resolve_files,
)
from jqmagic.core.sources.formats import dumps, invalid_json, parse_json
from jqmagic.core.sources.load import load_values
from jqmagic.core.sources.prepare import Prepared, convert, prepare
from jqmagic.core.sources.resolve import classify
from jqmagic.core.sources.yamldocs import parse_yaml

__all__ = ["Prepared", "check_encoding", "classify", "convert", "dumps", "invalid_json",
           "load_values", "open_file", "parse_json", "parse_yaml", "prepare", "read_error",
           "read_text", "resolve_files", "run_command"]
