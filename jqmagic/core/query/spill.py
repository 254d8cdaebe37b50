"""Results past the shown ones, written to their payload file as they are produced.

Both engines (the libjq worker and the fast path) keep the first ``keep`` results in memory
and hand the rest to a :class:`Spill`. A spill that cannot be written (a full disk, a folder
that cannot be made) stops quietly and says why in ``error``: it never fails the query.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import IO


class Spill:
    """The overflow of one query, written to ``path`` (``None``: counted, not kept)."""

    def __init__(self, path: str | None):
        self.path = path
        self.error: str | None = None
        self._file: IO[bytes] | None = None

    @property
    def written(self) -> bool:
        """Whether the payload file holds the whole output."""
        return self._file is not None and self.error is None

    def add(self, kept: Sequence[bytes | str], data: bytes) -> None:
        """Write one overflowing result; the first time, the ``kept`` ones before it."""
        if self.path is None or self.error is not None:
            return
        try:
            if self._file is None:
                os.makedirs(os.path.dirname(self.path), exist_ok=True)
                self._file = open(self.path, "wb")  # noqa: SIM115 - closed by close()
                self._file.writelines((p.encode() if isinstance(p, str) else p) + b"\n"
                                      for p in kept)
            self._file.write(data + b"\n")
        except OSError as exc:
            self.error = exc.strerror or str(exc)

    def discard(self) -> None:
        """Forget what was written (an engine that declined): the next one writes anew."""
        self.close()
        self._file, self.error = None, None
        if self.path is not None and os.path.exists(self.path):
            os.remove(self.path)

    def close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:
                self.error = self.error or exc.strerror or str(exc)
