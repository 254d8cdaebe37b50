"""Does this Python have what the code asks of it? ``PYTHON scripts/check_names.py PATH...``

Under the interpreter that runs it, every ``.py`` file under the PATHs compiles (new syntax
shows), and every name the code takes from the standard library exists: ``from m import n``
and dotted uses of an imported module (``math.exp2``), wherever they are (a function body
too, which importing the module would not run). Run by the oldest supported Python
(tests/test_python_versions.py), this is what ruff's target-version does not see: a call
added to the library in a later version. Prints ``path:line: what`` per miss, exits 1 if any.
Methods looked up on values (``str.removeprefix`` on a string) are out of its reach.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path


def misses(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    try:
        tree = compile(source, str(path), "exec", ast.PyCF_ONLY_AST)
        compile(tree, str(path), "exec")
    except SyntaxError as exc:
        return [f"{path}:{exc.lineno}: does not compile: {exc.msg}"]
    modules: dict[str, str] = {}  # a name bound by an import -> the stdlib module it is
    found: set[tuple[int, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _stdlib(alias.name):
                    bound = alias.asname or alias.name.split(".")[0]
                    modules[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _stdlib(node.module):
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if alias.name != "*" and _resolve(target) is _MISSING:
                    found.add((node.lineno, target))
    for node in ast.walk(tree):
        dotted = _dotted(node)
        if dotted and dotted.split(".")[0] in modules:
            head, _, rest = dotted.partition(".")
            target = f"{modules[head]}.{rest}"
            if _resolve(target) is _MISSING:
                found.add((node.lineno, target))
    return [f"{path}:{line}: no {target}" for line, target in sorted(found)]


_MISSING = object()


def _stdlib(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in sys.stdlib_module_names


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for the outermost attribute read of a chain on a plain name, else None."""
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
        return None
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _resolve(dotted: str) -> object:
    """The object a dotted stdlib name is here (importing submodules as needed), or _MISSING."""
    parts = dotted.split(".")
    try:
        value = importlib.import_module(parts[0])
    except ImportError:
        return _MISSING
    for depth, part in enumerate(parts[1:], start=2):
        if hasattr(value, part):
            value = getattr(value, part)
            continue
        try:
            value = importlib.import_module(".".join(parts[:depth]))
        except ImportError:
            return _MISSING
    return value


def main(paths: list[str]) -> int:
    files = sorted(f for p in map(Path, paths) for f in ([p] if p.is_file() else p.rglob("*.py")))
    found = [line for f in files for line in misses(f)]
    print("\n".join(found) if found else f"{len(files)} files: every stdlib name is here "
          f"(Python {sys.version.split()[0]})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
