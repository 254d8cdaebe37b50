"""Execute a notebook headless and write it as HTML: ``python scripts/run_notebook.py IN OUT``."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter


def main(source: str, target: str) -> None:
    out = Path(target).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    notebook = nbformat.read(source, as_version=4)
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(out.parent)}}
                   ).execute()
    html, _ = HTMLExporter().from_notebook_node(notebook)
    out.write_text(html, encoding="utf-8")
    print(f"Wrote {out}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
