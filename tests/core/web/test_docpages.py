"""HTML -> markdown on documentation pages: the Python docs of Debian's python3-doc, each
scored against its own reST source (bench/docpages.py), and the reference's rules."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from jqmagic.core.web.html import to_markdown

ROOT = Path(__file__).resolve().parents[3]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


docpages = _load("docpages")

# Floors a little under what bench/score_html.py measured (bench/RESULTS-html.md).
FLOORS = {
    "library/json": 0.99, "library/re": 0.99, "library/pathlib": 0.99,
    "library/itertools": 0.99, "library/functools": 0.99, "library/dataclasses": 0.99,
    "library/datetime": 0.99,
    # Sphinx numbers the tutorial's sections ("4.8.3.1."): numbers the source lacks
    "tutorial/controlflow": 0.985, "tutorial/datastructures": 0.985,
    "howto/sorting": 0.99, "howto/logging": 0.99,
    # rustdoc prints a macro's declaration above its docs: words the doc comment lacks
    "rust/quote/index": 0.97, "rust/quote/macro.quote": 0.975,
    "rust/quote/macro.quote_spanned": 0.97, "rust/quote/macro.format_ident": 0.965,
    "rust/syn/macro.parse_macro_input": 0.925, "rust/syn/macro.custom_keyword": 0.96,
    "rust/syn/macro.custom_punctuation": 0.945, "rust/unicode_ident/index": 0.985,
    "rust/proc_macro2/index": 0.98,
}


def _low_pages(pages) -> dict[str, float]:
    scorer = _load("score_html")
    low = {}
    for name, html, ref in pages:
        md = to_markdown(html.read_text("utf-8"), html.as_uri()).markdown
        f1 = scorer.prf(scorer.tokens(scorer.strip_markdown(md), False),
                        scorer.tokens(ref, False))[2]
        if f1 < FLOORS[name]:
            low[name] = round(f1, 3)
    return low


def test_python_doc_pages_keep_their_content():
    pages = docpages.python_pages()
    if not pages:
        pytest.skip(f"Debian's {docpages.PACKAGE} is not installed (no Python docs under "
                    "/usr/share/doc/python3.X/html): apt-get install python3-doc")
    assert [name for name, _, _ in pages] == docpages.PAGES
    assert not _low_pages(pages)


def test_rustdoc_pages_keep_their_content():
    pages = docpages.rust_pages()
    if not pages:
        pytest.skip(f"Debian's {docpages.RUST_PACKAGE} is not installed (no rustdoc pages "
                    f"under {docpages.RUST_ROOT}): apt-get install cargo-doc")
    assert [name for name, _, _ in pages] == [f"rust/{p}" for p in docpages.RUST_PAGES]
    assert not _low_pages(pages)


# -- the reference's rules (no package needed) ------------------------------------------
RST = """\
.. module:: json
   :synopsis: Encode and decode the JSON format.

.. index:: single: JavaScript

Basic Usage
-----------

.. function:: dumps(obj, *, skipkeys=False)
              dumpz(obj)
   :noindex:

   Serialize *obj* with :func:`~json.dump`, see :ref:`the table <py-to-json>` and
   :pep:`8`, ``literal``, `JSON <https://json.org>`_ and :class:`!str`.

   .. versionadded:: 3.5
      Some words.

   .. note::

      Noted.

.. class:: JSONDecoder()

.. doctest::
   :hide:

   >>> hidden()

.. testsetup::

   import secret

::

   >>> shown()  # doctest: +SKIP

.. image:: pic.png
   :alt: A picture

+-----+-----+
| a   | b   |
+=====+=====+
| c   | d   |
+-----+-----+

.. This is a comment
   on two lines.
"""


def test_rst_reference_keeps_what_the_page_shows():
    text = " ".join(docpages.rst_reference(RST).split())
    for shown in ("Basic Usage", "json.dumps(obj, *, skipkeys=False)", "json.dumpz(obj)",
                  "Serialize *obj* with dump, see the table and PEP 8, literal, JSON and str.",
                  "New in version 3.5. Some words.", "Note", "Noted.",
                  "class json.JSONDecoder()", ">>> shown()", "A picture", "| a | b |"):
        assert shown in text, shown
    for hidden in ("synopsis", "JavaScript", "noindex", "---", "hidden()", "secret",
                   "doctest:", "+---", "comment", "py-to-json", "https"):
        assert hidden not in text, hidden


RUST_SOURCE = """\
//! Crate docs.
use std::fmt;

/// Makes a thing, see [`Thing`] and [the book](https://book.example/x).
///
/// ```
/// # use hidden::setup;
/// let t = make();
/// ```
///
/// ```text
/// # shown in text blocks
/// ```
///
/// [`Thing`]: crate::Thing
#[macro_export]
macro_rules! make {
    () => {};
}
"""


def test_rustdoc_reference_is_the_items_doc_comment(tmp_path):
    (tmp_path / "src" / "k").mkdir(parents=True)
    (tmp_path / "k").mkdir()
    esc = RUST_SOURCE.replace("&", "&amp;").replace("<", "&lt;")
    (tmp_path / "src" / "k" / "lib.rs.html").write_text(
        f'<html><body><pre class="rust"><code>{esc}</code></pre></body></html>')
    page = tmp_path / "k" / "macro.make.html"
    page.write_text('<html><body><a class="srclink" href="../src/k/lib.rs.html#17-19">'
                    "source</a></body></html>")
    text = " ".join(docpages.rustdoc_reference(page).split())
    assert text == ("Makes a thing, see [`Thing`] and the book. let t = make(); "
                    "# shown in text blocks"), text
