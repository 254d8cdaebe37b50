"""The house rules the code keeps, checked over its source: settings are written only
through settings.py, the environment is read there, ARCHITECTURE.md maps every module and
folder; the import graph (every import, at module level or in a function) has no circle and
no import from the core into a face, and faces never import each other; modules are at
most 500 lines, at most six directly under jqmagic/ (issue 59)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "jqmagic"
ARCHITECTURE = PACKAGE.parent / "ARCHITECTURE.md"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)

# The environment handled, not read as configuration: a process's own plumbing.
ENVIRONMENT_HANDLED = {
    "core/confine.py",  # a confined worker's scratch folder is its $TMPDIR
    "core/query/worker.py",  # takes its caller's home and payload store
    "core/query/jqdefs.py",  # hides $HOME while a sandboxed program compiles (~/.jq)
    "core/query/supervisor.py",  # starts a worker with this environment or a scrubbed one
    "core/query/forkworker.py",  # a forked worker takes that environment as its own
    "core/query/callerenv.py",  # libjq's $ENV: the caller's, not the worker's own variables
    "core/explain/child.py",  # the same for --explain's child process
}


def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_no_module_writes_settings():
    writes = re.compile(r"\bsettings\.[a-z_]+\s*=(?!=)|setattr\(\s*(core_)?settings\b")
    found = [f"{_name(p)}:{n}" for p in MODULES if _name(p) != "core/settings.py"
             for n, line in enumerate(_source(p).splitlines(), 1) if writes.search(line)]
    assert found == [], "write settings through settings.configure / settings.using"


def test_the_environment_is_read_in_settings_py():
    reads = re.compile(r"os\.environ|os\.getenv")
    found = sorted({_name(p) for p in MODULES if reads.search(_source(p))})
    assert set(found) - ENVIRONMENT_HANDLED - {"core/settings.py"} == set()


def test_architecture_maps_every_module():
    text = _source(ARCHITECTURE)
    missing = [_name(p) for p in MODULES if not p.name.startswith("__") and
               not re.search(rf"(?<![\w.]){re.escape(p.stem)}(?!\w)", text)]
    assert missing == [], "add these modules to ARCHITECTURE.md's map"


# -- the import graph ---------------------------------------------------------------------
# Every import of the package, at module level or inside a function, as an edge between
# modules: ``from a.b import c`` reaches module ``a.b.c`` when there is one, else ``a.b``.
# (The packages an import passes through are not edges: ``import a.b.c`` runs a/__init__.py,
# which the graph does not count, or every package would hold its modules in a circle.)
FACES = ("notebook", "cli", "tools")  # each face's folder under jqmagic/
MAX_LINES = 500


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULE_PATHS = {_module(p): p for p in MODULES}


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".")
            if MODULE_PATHS[module].name != "__init__.py":
                package = package[:-1]
            package = package[:len(package) - node.level + 1]
            base = ".".join([*package, *([node.module] if node.module else [])])
        names = [f"{base}.{alias.name}" for alias in node.names]
    for name in names:
        while name and name not in MODULE_PATHS:
            name = name.rpartition(".")[0]
        if name:
            yield name


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULE_PATHS.items():
        tree = ast.parse(_source(path), filename=str(path))
        graph[module] = {target for node in ast.walk(tree)
                         if isinstance(node, (ast.Import, ast.ImportFrom))
                         for target in _targets(module, node)
                         if target != module and not module.startswith(target + ".")}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    # worker.py imports the shape code inside calls(), on a shape call's first use
    assert "jqmagic.core.shape.infer" in graph["jqmagic.core.query.worker"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle():
    assert circles(import_graph()) == []


def test_the_core_imports_no_face():
    graph = import_graph()
    upward = sorted(f"{module} -> {target}" for module, targets in graph.items()
                    if module.startswith("jqmagic.core.") for target in targets
                    if not target.startswith("jqmagic.core"))
    assert upward == [], "the core imports only the core"


def test_no_face_imports_another():
    graph = import_graph()
    faces = {face: f"jqmagic.{face}" for face in FACES}
    assert all(face in MODULE_PATHS for face in faces.values()), "a face's folder is missing"
    crossing = sorted(f"{module} -> {target}" for module, targets in graph.items()
                      for face, prefix in faces.items()
                      if module == prefix or module.startswith(prefix + ".")
                      for target in targets for other in faces.values()
                      if other != prefix and (target == other or target.startswith(other + ".")))
    assert crossing == [], "a face imports another face"


def test_at_most_six_modules_directly_under_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 6, top


def test_no_module_is_over_500_lines():
    long = {_name(p): n for p in MODULES
            if (n := len(_source(p).splitlines())) > MAX_LINES}
    assert long == {}, "split these where a reader would look for the parts"


def test_architecture_maps_every_folder_to_its_job():
    text = _source(ARCHITECTURE)
    table = text.split("Every folder has one job:", 1)[1].split("\n\n", 2)[1]
    folders = sorted({p.parent.relative_to(PACKAGE.parent).as_posix() for p in MODULES})
    missing = [f for f in folders if f"`{f}/`" not in table and
               f"`{f.rpartition('/')[2]}/`" not in table]
    assert missing == [], "say each folder's one job in ARCHITECTURE.md's table"
