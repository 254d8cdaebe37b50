"""Run one operation through each public face and report its outcome as ``(code, text)``.

``code`` is ``"OK"`` for a result, else the JqMagicError code the face reported; every
helper fails the test on any other exception or on a traceback in the output.
"""

from __future__ import annotations

import io
import json
import re
import shlex
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from IPython.core.error import UsageError

from jqmagic import patch, query, shape
from jqmagic.cli import main
from jqmagic.core.errors import CODES, JqMagicError
from jqmagic.core.sources import load_values

OK = "OK"
_CLI_CODE = re.compile(r"error ([A-Z_]+):")


def core(operation: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """Call a core function: ("OK", its result) or (code, the error)."""
    try:
        return OK, operation(*args, **kwargs)
    except JqMagicError as exc:
        assert exc.code in CODES and exc.message
        return exc.code, exc


def cli(*argv: str) -> tuple[str, str]:
    """``python -m jqmagic ARGV`` in process: ("OK", output) or (code, output)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    text = out.getvalue() + err.getvalue()
    assert "Traceback" not in text, text[-2000:]
    if status == 0:
        return OK, text
    found = _CLI_CODE.search(err.getvalue())
    if found:
        code = found[1]
    else:  # patch and fetch --json print the error as JSON
        printed = json.loads(out.getvalue())
        code = printed.get("code") or printed["error_code"]
    assert code in CODES, text[-500:]
    return code, text


def magic(ip: Any, name: str, line: str) -> tuple[str, Any]:
    """A line magic in a real IPython shell: ("OK", result) or (code, the message)."""
    try:
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            return OK, ip.run_line_magic(name, line)
    except UsageError as exc:
        code = getattr(exc, "code", None) or str(exc).split(":", 1)[0]
        assert code in CODES, str(exc)
        assert "Traceback" not in str(exc)
        return code, str(exc)


def file_entries(ip: Any, program: str = "type") -> dict[str, Callable[[str], tuple[str, Any]]]:
    """Every face that reads a file, as ``name -> run(path)`` (the queries run ``program``:
    ``.`` shows the whole file, where a leak would be seen)."""
    q = shlex.quote
    return {
        "query": lambda p: core(query, program, file=p),
        "shape": lambda p: core(shape, file=p),
        "shape-stream": lambda p: core(shape, file=p, stream=True),
        "load_values": lambda p: core(load_values, file=p),
        "cli-query": lambda p: cli("query", program, p),
        "cli-inspect": lambda p: cli("inspect", p),
        "%jq": lambda p: magic(ip, "jq", f"{program} {q(p)} --file"),
        "%inspect": lambda p: magic(ip, "inspect", f"{q(p)} --file"),
    }


def patch_entries(ip: Any) -> dict[str, Callable[[str], tuple[str, Any]]]:
    """Every face that patches a file (setting /x to 1)."""
    return {
        "patch": lambda p: core(patch, p, "set", "/x", 1),
        "cli-patch": lambda p: cli("patch", p, "set", "/x", "1"),
        "%jsonpatch": lambda p: magic(ip, "jsonpatch", f"{shlex.quote(p)} set /x 1 --file"),
    }
