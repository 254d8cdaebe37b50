"""A shell command's stdout as a source: run under the sandbox, a timeout and a size cap."""

from __future__ import annotations

import os
import signal
import subprocess

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import settings
from jqmagic.core.words import term


def run_command(command: str, out_path: str, timeout: float | None = None) -> None:
    """Run ``command`` in a shell, its stdout into ``out_path``; EXEC_ERROR or TIMEOUT.

    The sandbox may refuse it (SANDBOX_DENIED). Files the command writes, its output
    included, stop at ``settings.exec_max_bytes`` (the shell's ``ulimit -f``): TOO_LARGE.
    """
    sandbox.check_exec(command)
    timeout = settings.exec_timeout if timeout is None else timeout
    cap = settings.exec_max_bytes
    # POSIX sh counts ulimit -f in 512-byte blocks; the limit binds the command's children.
    limited = ["/bin/sh", "-c", f'ulimit -f {-(-cap // 512)} && eval "$1"', "sh", command]
    with open(out_path, "wb") as out:
        process = subprocess.Popen(limited, stdout=out, stderr=subprocess.PIPE,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise JqMagicError("TIMEOUT", f"The command ran longer than {timeout:g} s: "
                               f"{command}", f"Raise the limit with {term('timeout')}.") from None
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    if os.path.getsize(out_path) >= cap:
        raise JqMagicError("TOO_LARGE", f"The command's output passed the {cap:,}-byte cap: "
                           f"{command}", "Make the command print less (filter it first), or "
                           "raise JqMagic exec_max_bytes.")
    if process.returncode != 0:
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        why = lines[-1] if lines else "no error output"
        raise JqMagicError("EXEC_ERROR", f"The command exited with status "
                           f"{process.returncode}: {why}", f"Run it in a terminal: {command}")

