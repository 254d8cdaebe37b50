"""One jqmagic session in one process: time each query in turn (the first is cold).

    python bench/session.py FILE PROGRAM [PROGRAM ...]   -> JSON list of seconds, stdout
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    path, programs = sys.argv[1], sys.argv[2:]
    from jqmagic.core.query import query

    times = []
    for program in programs:
        started = time.perf_counter()
        query(program, path, passthrough=True)
        times.append(time.perf_counter() - started)
    print(json.dumps(times))


if __name__ == "__main__":
    main()
