"""JSON text handed to jq as written (``--argjson``, ``--jsonargs``): its own small module,
so that the command line's start-up reads it without the option objects of
:mod:`jqmagic.core.options` (which re-exports it)."""

from __future__ import annotations

from jqmagic.core.errors import JqMagicError

# a high surrogate escape with no low one after it (an odd run of backslashes before it)
_LONE_HIGH_ESCAPE = (r"(?<!\\)(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2}"
                     r"(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})")


class JsonText(str):
    """JSON text handed to jq as written (``--argjson x 1.50`` keeps ``1.50``, ``1e1000``
    and 64-bit integers): build it with :meth:`of`, which checks that it is JSON."""

    @classmethod
    def of(cls, text: str, what: str) -> JsonText:
        import json
        import re

        try:
            json.loads(text)
            lone = re.search(_LONE_HIGH_ESCAPE, text)
            if lone:  # Python's json takes it; jq's parser does not
                raise json.JSONDecodeError("Invalid \\uXXXX\\uXXXX surrogate pair escape",
                                           text, lone.end())
        except ValueError as exc:
            raise JqMagicError("INVALID_JSON", f"{what}: {exc.msg} at column {exc.colno}.",
                               "Give JSON text, e.g. --argjson n 3 or --argjson ids "
                               "'[1,2]'.") from None
        except RecursionError:
            raise JqMagicError("TOO_LARGE", f"{what} is nested too deeply.",
                               "Pass a flatter value.") from None
        return cls(text)
