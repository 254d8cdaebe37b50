"""Documentation pages for the HTML -> markdown score, each scored against a reference
derived from the source its authors wrote:

- the Python docs of Debian's ``python3-doc`` (Sphinx HTML) against their reST sources
  (``_sources/<page>.rst.txt``), by :func:`rst_reference`;
- rustdoc pages of Debian's ``cargo-doc`` (the crates cargo builds on: quote, syn,
  proc-macro2, unicode-ident) against the doc comments of the Rust source the same package
  renders under ``src/``, by :func:`rustdoc_reference`.

The pages are read from the installed package at run time, never copied into this
repository. :func:`rst_reference` turns a reST source into the text a reader of the
rendered page sees, by fixed rules (no hand-edited text):

- markup goes, its text stays: ``literal``, *emphasis*, roles (``:func:`~json.dump``` ->
  ``dump``, ``:ref:`text <label>``` -> ``text``, a bare ``:ref:`label``` -> the title the
  label points at, ``:pep:`8``` -> ``PEP 8``), hyperlinks (```text <url>`_`` -> ``text``);
- section underlines, table borders, comments, targets (``.. _label:``) and directives that
  render nothing (``index``, ``module``, ``testsetup``, ``toctree``...) go with their bodies;
- an API directive keeps its signature, with the label Sphinx prints before it (``class``,
  ``exception``, ...) and, at the top level, the current module's name before it
  (``.. function:: dumps(obj)`` under ``.. module:: json`` reads ``json.dumps(obj)``);
- an admonition or version note keeps its text after the label Sphinx prints for it
  (``.. note::`` -> ``Note``, ``.. versionadded:: 3.2`` -> ``New in version 3.2.``);
- an image counts as its ``:alt:`` text (the scorer's rule for images everywhere);
- a hidden block (``:hide:``) counts as nothing, doctest flags (``# doctest: +SKIP``) and
  ``<BLANKLINE>`` go, as Sphinx shows them;
- a ``literalinclude`` counts as its file, found by name under the docs' ``_downloads``
  (datetime's tzinfo_examples.py), else as nothing.

For a rustdoc page, the page's "source" link names the file and the item's first line; the
reference is the item's doc comment there (the ``///`` lines above that line, or a crate's
``//!`` lines), as markdown less what rustdoc hides or does not print: hidden lines of Rust
examples (``# ...``), link definitions (``[x]: url``), URLs and HTML tags. A crate page
adds its table of items: each kind's heading rustdoc prints (``Macros``), each item's name
and summary (the first paragraph of its own doc comment). The declaration rustdoc prints
above an item's docs (``macro_rules! quote { ... }``) is not in the reference: it costs a
little precision.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

# Where Debian's python3-doc puts the HTML (python3.X-doc; the newest one found wins).
DOC_ROOTS = sorted((p for p in Path("/usr/share/doc").glob("python3.*/html")
                    if re.fullmatch(r"python3\.\d+", p.parent.name)),
                   key=lambda p: int(p.parent.name.split(".")[1]), reverse=True)
PACKAGE = "python3-doc"

# ~10 pages: API references, a tutorial, how-tos (by the path under the HTML root).
PAGES = [
    "library/json", "library/re", "library/pathlib", "library/itertools",
    "library/functools", "library/dataclasses", "library/datetime",
    "tutorial/controlflow", "tutorial/datastructures", "howto/sorting", "howto/logging",
]

RUST_PACKAGE = "cargo-doc"
RUST_ROOT = Path("/usr/share/doc/cargo/doc")
RUST_PAGES = [
    "quote/index", "quote/macro.quote", "quote/macro.quote_spanned", "quote/macro.format_ident",
    "syn/macro.parse_macro_input", "syn/macro.custom_keyword", "syn/macro.custom_punctuation",
    "unicode_ident/index", "proc_macro2/index",
]

_OBJECT_LABEL = {
    "function": "", "method": "", "attribute": "", "data": "", "decorator": "@",
    "decoratormethod": "@", "class": "class ", "exception": "exception ",
    "classmethod": "classmethod ", "staticmethod": "static ", "abstractmethod": "abstract ",
    "coroutinefunction": "coroutine ", "coroutinemethod": "coroutine ", "property": "property ",
    "cmdoption": "", "option": "", "envvar": "", "describe": "", "opcode": "",
    "pdbcommand": "", "type": "",
}
_MODULE_LEVEL = {"function", "class", "exception", "data", "decorator", "coroutinefunction"}
_LABEL = {
    "note": "Note", "warning": "Warning", "seealso": "See also", "important": "Important",
    "tip": "Tip", "caution": "Caution", "attention": "Attention", "danger": "Danger",
    "error": "Error", "hint": "Hint", "impl-detail": "CPython implementation detail:",
}
_SILENT = {
    "index", "module", "moduleauthor", "sectionauthor", "currentmodule", "highlight",
    "testsetup", "testcleanup", "toctree", "tabularcolumns", "literalinclude", "include",
    "raw", "program", "default-role", "role", "sidebar", "contents",
}
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:-]+)::\s*(.*)$")
_EXPLICIT = re.compile(r"^(\s*)\.\.(\s|$)")
_FOOTNOTE = re.compile(r"^(\s*)\.\.\s+\[[^\]]*\]\s*(.*)$")
_ADORNMENT = re.compile(r"^\s*([=\-~^\"'`#*+<>:_.])\1{2,}\s*$")
_TABLE_RULE = re.compile(r"^\s*(\+[-=+]+\+|=+( +=+)+|-+( +-+)+)\s*$")
_OPTION = re.compile(r"^\s*:[\w-]+:( .*)?$")
_ROLE = re.compile(r"(?::[\w-]+)?:([\w-]+):`((?:[^`\\]|\\.)+)`")
_TITLED = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)


def rst_reference(rst: str, downloads: Path | None = None) -> str:
    """The text a reader sees in the page rendered from ``rst`` (rules in the module doc);
    ``downloads``: the docs' ``_downloads`` folder, where included files are found."""
    lines = rst.splitlines()
    out: list[str] = []
    module = ""
    skip_indent: int | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip())
        if skip_indent is not None:
            if not line.strip() or indent > skip_indent:
                i += 1
                continue
            skip_indent = None
        m = _DIRECTIVE.match(line)
        if m:
            name = m.group(2).split(":")[-1]
            arg = m.group(3)
            # An argument may go on over more lines (several signatures, long titles).
            j = i + 1
            while j < len(lines) and lines[j].strip() and not _OPTION.match(lines[j]) and \
                    len(lines[j]) - len(lines[j].lstrip()) > indent and name in _OBJECT_LABEL:
                arg += "\n" + lines[j].strip()
                j += 1
            options = {}
            while j < len(lines) and _OPTION.match(lines[j]):
                key, _, value = lines[j].strip()[1:].partition(":")
                options[key] = value.strip()
                j += 1
            if name in ("module", "currentmodule"):
                module = arg.strip()
            if name == "literalinclude" and downloads is not None:
                out.extend(_included(downloads, arg.strip()))
            if name in _SILENT or "hide" in options:
                skip_indent = indent
            elif name in _OBJECT_LABEL:
                prefix = f"{module}." if (name in _MODULE_LEVEL and not indent and module
                                          and arg and not arg.startswith(module + ".")) else ""
                out.extend(f"{_OBJECT_LABEL[name]}{prefix}{sig}" for sig in arg.split("\n"))
            elif name in _LABEL:
                out.append(f"{_LABEL[name]} {arg}")
            elif name in ("versionadded", "versionchanged", "deprecated",
                          "deprecated-removed"):
                out.append(_version_note(name, arg))
            elif name == "audit-event":
                event, _, args = arg.partition(" ")
                args = args.rsplit(" ", 1)[0] if " " in args.strip() else args
                out.append(f"Raises an auditing event {event} with arguments "
                           f"{', '.join(a for a in args.split(',') if a)}.")
            elif name in ("image", "figure"):
                out.append(options.get("alt", ""))
            else:  # rubric, code-block, doctest, productionlist, topic, table, ...
                if name not in ("code-block", "sourcecode", "highlight", "doctest",
                                "testcode", "testoutput", "only", "container"):
                    out.append(arg)
                if "header" in options:
                    out.append(options["header"])
            i = j
            continue
        fm = _FOOTNOTE.match(line)
        if fm:
            out.append(fm.group(2))
        elif _EXPLICIT.match(line):  # a comment, a target, a substitution definition
            skip_indent = indent
        elif not (_ADORNMENT.match(line) or _TABLE_RULE.match(line)):
            out.append(line)
        i += 1
    # Sphinx trims doctest flags (trim_doctest_flags, on by default) from what it shows.
    text = re.sub(r"\s*#\s*doctest:.*$", "", "\n".join(out), flags=re.M)
    return _inline(re.sub(r"^\s*<BLANKLINE>\s*$", "", text, flags=re.M))


def _included(downloads: Path, path: str) -> list[str]:
    """The lines of a literalinclude's file, found by its name under ``_downloads``."""
    for found in downloads.glob(f"*/{Path(path).name}"):
        return found.read_text("utf-8").splitlines()
    return []


def _version_note(name: str, arg: str) -> str:
    version, _, text = arg.partition(" ")
    if name == "versionadded":
        return f"New in version {version}. {text}"
    if name == "versionchanged":
        return f"Changed in version {version}: {text}"
    if name == "deprecated":
        return f"Deprecated since version {version}: {text}"
    removed, _, text = text.partition(" ")
    return f"Deprecated since version {version}, will be removed in version {removed}: {text}"


def _inline(text: str) -> str:
    text = _ROLE.sub(lambda m: _role_text(m.group(1), m.group(2)), text)
    text = re.sub(r"`([^`<]*?)\s*<[^`>]*>`__?", r"\1", text)  # `text <url>`_
    text = re.sub(r"`([^`]+)`__?", r"\1", text)  # `name`_
    text = re.sub(r"\[(#\w*|\d+|\*)\]_", "", text)  # footnote references
    text = re.sub(r"``(.+?)``", r"\1", text, flags=re.S)
    text = re.sub(r"(?<![\w`])`([^`]+)`(?!\w)", r"\1", text)  # the default role
    text = re.sub(r"\b(\w+)__?(?=[\s.,;:)]|$)", r"\1", text)  # name_ references
    text = re.sub(r"\|(\w+)\|", r"\1", text)  # substitutions
    text = text.replace("\\ ", "")
    return re.sub(r"\\(.)", r"\1", text)


def _role_text(role: str, body: str) -> str:
    body = body.replace("\\`", "`")
    titled = _TITLED.match(body)
    if role in ("pep", "rfc"):
        target = titled.group(1) if titled else body
        return target if titled else f"{role.upper()} {body}"
    if role == "issue":
        return f"bpo-{body}"
    if role == "gh":
        return f"gh-{body}"
    if role == "abbr":
        return re.sub(r"\s*\(.*\)$", "", body, flags=re.S)
    if titled and role not in ("samp", "kbd", "math", "file", "option", "program"):
        return titled.group(1)
    if role in ("ref", "doc"):
        return _titles().get(body.strip().lower(), "")
    body = body.lstrip("!")
    if body.startswith("~"):
        body = body[1:].split(".")[-1]
    return body.lstrip(".")


@lru_cache(maxsize=1)
def _titles() -> dict[str, str]:
    """Label (``.. _label:``) and document path -> the section title it names, over every
    source of the installed docs (what a bare ``:ref:``/``:doc:`` renders as)."""
    titles: dict[str, str] = {}
    for root in DOC_ROOTS[:1]:
        sources = root / "_sources"
        for path in sources.rglob("*.rst.txt"):
            lines = path.read_text("utf-8", "replace").splitlines()
            doc = "/" + str(path.relative_to(sources))[: -len(".rst.txt")]
            for n, line in enumerate(lines[:-1]):
                if _ADORNMENT.match(lines[n + 1]) and line.strip() and \
                        not _ADORNMENT.match(line):
                    titles.setdefault(doc.lower(), _inline(line.strip()))
                    titles.setdefault(doc.lower()[1:], _inline(line.strip()))
                    break
            for n, line in enumerate(lines):
                target = re.match(r"^\.\.\s+_([^:]+):\s*$", line)
                if not target:
                    continue
                for nxt in range(n + 1, min(n + 6, len(lines) - 1)):
                    if lines[nxt].strip() and _ADORNMENT.match(lines[nxt + 1]):
                        titles.setdefault(target.group(1).lower(), _inline(lines[nxt].strip()))
                        break
    return titles


_RUST_FENCE = re.compile(r"^```\s*([\w,]*)\s*$")
_RUST_INFO = {"", "rust", "ignore", "no_run", "compile_fail", "should_panic", "edition2015",
              "edition2018", "edition2021"}


def rustdoc_reference(page: Path) -> str:
    """The doc comment of the item a rustdoc page shows (rules in the module doc)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text("utf-8"), "html.parser")
    src, _, span = soup.find("a", class_="srclink")["href"].partition("#")
    source = BeautifulSoup((page.parent / src).read_text("utf-8"), "html.parser")
    code = source.find("pre", class_="rust").get_text().splitlines()
    start = int(span.split("-")[0]) - 1
    if start == 0:  # a crate or module page: its //! lines, then its table of items
        doc = [ln.strip()[3:] for ln in code if ln.strip().startswith("//!")]
        return _doc_markdown_text([ln[1:] if ln.startswith(" ") else ln for ln in doc]) + \
            _item_table(soup, page)
    else:
        doc, n = [], start - 1
        while n >= 0 and (code[n].strip().startswith(("///", "#[")) or not code[n].strip()):
            if code[n].strip().startswith("///"):
                doc.insert(0, code[n].strip()[3:])
            elif not code[n].strip():
                break
            n -= 1
    return _doc_markdown_text([ln[1:] if ln.startswith(" ") else ln for ln in doc])


_KIND = {"mod": "Modules", "struct": "Structs", "enum": "Enums", "trait": "Traits",
         "fn": "Functions", "macro": "Macros", "type": "Type Definitions",
         "constant": "Constants", "static": "Statics", "union": "Unions",
         "derive": "Derive Macros", "attr": "Attribute Macros"}


def _item_table(soup, page: Path) -> str:
    """A crate page's table of items as rustdoc prints it: each kind's heading, each item's
    name and summary (the first paragraph of the item's own doc comment)."""
    out, kinds = [], set()
    for a in soup.select("div.item-row div.item-left a[href]"):
        kind = (a.get("class") or [""])[0]
        if kind not in kinds:
            kinds.add(kind)
            out.append(_KIND.get(kind, ""))
        target = (page.parent / a["href"]).resolve()
        summary = ""
        if target.is_file() and _has_source(target):
            summary = rustdoc_reference(target).strip().split("\n\n")[0]
        out.append(f"{a.get_text()} {summary}")
    return "\n\n" + "\n".join(out) if out else ""


def _has_source(page: Path) -> bool:
    """The rustdoc page links its source (a re-exported item from another crate may not)."""
    return 'class="srclink"' in page.read_text("utf-8")


def _doc_markdown_text(lines: list[str]) -> str:
    out, rust = [], None  # rust: inside a fence of Rust code (True), other code (False)
    for line in lines:
        fence = _RUST_FENCE.match(line.strip())
        if fence:
            rust = None if rust is not None else set(fence.group(1).split(",")) <= _RUST_INFO
            continue
        if rust and (line.strip() == "#" or line.strip().startswith("# ")):
            continue  # hidden by rustdoc
        if rust is None and re.match(r"^\s*\[[^\]]+\]:\s*\S+", line):
            continue  # a link definition
        out.append(line.replace("##", "#", 1) if rust else line)
    text = "\n".join(out)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links, images -> text, alt
    text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)  # [text][ref] -> text
    text = re.sub(r"<[^>\n]+>", " ", text)  # HTML tags
    return re.sub(r"https?://\S+|&\w+;", " ", text)


def python_pages() -> list[tuple[str, Path, str]]:
    """(name, html path, reference text) for each page of :data:`PAGES` found installed."""
    if not DOC_ROOTS:
        return []
    root, found = DOC_ROOTS[0], []
    for page in PAGES:
        html, rst = root / f"{page}.html", root / "_sources" / f"{page}.rst.txt"
        if html.is_file() and rst.is_file():
            found.append((page, html, rst_reference(rst.read_text("utf-8"),
                                                    root / "_downloads")))
    return found


def rust_pages() -> list[tuple[str, Path, str]]:
    """(name, html path, reference text) for each page of :data:`RUST_PAGES` found."""
    return [(f"rust/{page}", RUST_ROOT / f"{page}.html",
             rustdoc_reference(RUST_ROOT / f"{page}.html"))
            for page in RUST_PAGES if (RUST_ROOT / f"{page}.html").is_file()]


def doc_pages() -> list[tuple[str, Path, str]]:
    """Every documentation page found installed; empty without both packages."""
    return python_pages() + rust_pages()
