"""Write the notebooks in notebooks/ from the cell lists in scripts/notebooks/ (no outputs).

``python scripts/make_notebooks.py`` rewrites every notebook; ``--check`` only says which
stored notebooks differ from their cell lists (exit status 1 if any does).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parents[1]
SOURCES = Path(__file__).resolve().parent / "notebooks"
TARGET = ROOT / "notebooks"
METADATA = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                   "name": "python3"},
    "language_info": {"name": "python"},
}


def build(cells: list[tuple]) -> nbformat.NotebookNode:
    """A notebook from ``(kind, source[, tags])`` tuples; kind is "md" or "code"."""
    out = []
    for index, cell in enumerate(cells):
        kind, source, *rest = cell
        source = source.strip("\n")
        metadata = {"tags": list(rest[0])} if rest else {}
        made = new_markdown_cell(source, metadata=metadata) if kind == "md" \
            else new_code_cell(source, metadata=metadata)
        made["id"] = f"c{index:02d}"  # stable ids: a rebuild gives the same file
        out.append(made)
    return new_notebook(cells=out, metadata=METADATA)


def notebooks() -> dict[str, nbformat.NotebookNode]:
    """Every notebook by file name, from scripts/notebooks/nb_*.py (each has NAME, CELLS)."""
    found = {}
    for path in sorted(SOURCES.glob("nb_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found[module.NAME] = build(module.CELLS)
    return found


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, notebook in notebooks().items():
        path = TARGET / name
        text = nbformat.writes(notebook) + "\n"
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"Wrote {path.relative_to(ROOT)}")
    if stale:
        print("Out of date (run python scripts/make_notebooks.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
