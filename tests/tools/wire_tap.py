"""Run a command, pass stdin through to it, copy its stdout and note each line's size in
bytes (one number a line, in the file named first): what an MCP server sent on the wire."""

import subprocess
import sys


def main() -> int:
    log, command = sys.argv[1], sys.argv[2:]
    child = subprocess.Popen(command, stdout=subprocess.PIPE)
    with open(log, "a") as sizes:
        for line in child.stdout:
            sizes.write(str(len(line.rstrip(b"\n"))) + "\n")
            sizes.flush()
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
