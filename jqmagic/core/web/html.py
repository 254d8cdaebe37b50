"""HTML -> markdown: clean the page, keep its main content, render it with markdownify.

Imported on first use (it pulls bs4 and markdownify); ``fetch`` calls :func:`to_markdown`.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from bs4 import BeautifulSoup, Comment, Doctype, ProcessingInstruction, UnicodeDammit
from markdownify import ATX, MarkdownConverter

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web import stream
from jqmagic.core.web.boiler import drop_title_heading
from jqmagic.core.web.comments import take_comments
from jqmagic.core.web.extract import decomposed, main_content, text_of
from jqmagic.core.web.fallback import settle
from jqmagic.core.web.formula import math_image_tex, math_markdown
from jqmagic.core.web.meta import page_meta
from jqmagic.core.web.nesting import LxmlTree, one_root
from jqmagic.core.web.slim import LAZY_SRC, slim_tags
from jqmagic.core.web.widgets import drop_widgets

# Never content: dropped before anything else (unless raw).
_JUNK_TAGS = ["script", "style", "noscript", "template", "link", "meta", "svg", "canvas",
              "dialog", "head", "title"]
_COOKIE = re.compile(r"cookie|consent|gdpr|onetrust|cmp-banner", re.I)
_LANG_CLASS = re.compile(
    r"^(?:language|lang|highlight-source|highlight|brush:?|sourceCode)-?([\w+#.-]+)$", re.I
)
_KNOWN_LANGS = {
    "python", "py", "js", "javascript", "ts", "typescript", "json", "yaml", "yml", "bash",
    "sh", "shell", "console", "sql", "c", "cpp", "c++", "java", "go", "rust", "ruby", "php",
    "html", "xml", "css", "diff", "text", "toml", "ini", "kotlin", "swift", "scala", "r",
    "perl", "lua", "haskell", "csharp", "cs", "jsx", "tsx", "powershell", "dockerfile",
    "makefile", "markdown", "md", "nginx", "graphql", "http",
}
MAX_DEPTH = 150
# A tree costs 0.1-0.5 ms an element (bs4's parse, copies and searches, markdownify):
# past this many start tags a page is converted in one pass of the tokenizer instead
# (stream.py: about 5 us an element), without main-content extraction. The shared
# corpus's biggest page has 4,300; Python's stdtypes docs 17,100 (its contents.html,
# one long table of contents, 48,900 and its full index 35,000 are streamed).
TREE_TAGS = 20_000
_START_TAG = re.compile(r"<[A-Za-z]")
# html.parser reads "<![endif]-->" as a marked section running to the next "]>" (the page
# up to there a declaration); a browser, as a comment to the first ">" (bounded: linear).
_MARKED = re.compile(r"<!\[(?!CDATA\[)([^<>]{0,200})>")


@dataclass
class Page:
    """A converted page: its title, its markdown, and who wrote it when (meta.py)."""

    title: str
    markdown: str
    cut: bool = False  # the conversion stopped at its deadline; the markdown says so
    byline: str = ""
    published: str = ""
    comments: str = ""  # the readers' comments (comments.py), markdown; not in the body


def parse(html: str | bytes, parser: str | None = None) -> Any:
    """Parse with ``parser``, else lxml when installed (faster), else html.parser."""
    if not parser:
        try:
            import lxml  # noqa: F401

            parser = "lxml"
        except ImportError:  # pragma: no cover - depends on the environment
            parser = "html.parser"
    if parser != "html.parser":
        return BeautifulSoup(html, parser)
    if isinstance(html, str):
        html = _MARKED.sub(r"<!--\1-->", html)
    soup = LxmlTree(html, parser)  # built as lxml builds it: implied ends, ignored tags
    one_root(soup)  # a page that is not one <html> (CleanEval's <text>): one html, one body
    return soup


def flatten_deep(soup: Any, limit: int = MAX_DEPTH) -> int:
    """Flatten what is nested deeper than ``limit`` into the text of the element at the
    limit (the text stays), so a pathological page (20,000 nested ``<div>``) can neither
    exhaust recursion in the converter nor cost quadratic time. Returns how many elements
    were flattened away."""
    depth: dict[int, int] = {id(soup): 0}
    at_limit, below = [], 0
    for el in soup.descendants:
        if getattr(el, "name", None) is None:
            continue
        d = depth.get(id(el.parent), limit + 1) + 1
        depth[id(el)] = d
        if d == limit and el.find(True) is not None:
            at_limit.append(el)
        elif d > limit:
            below += 1
    for el in at_limit:
        text = el.get_text()
        el.clear()
        el.append(text)
    return below


def extract_title(soup: Any) -> str:
    """The ``<title>`` text, else ``og:title``, else the first ``<h1>``; "" if none."""
    tag = soup.find("title")
    if tag and text_of(tag):
        return text_of(tag)
    meta = soup.find("meta", attrs={"property": "og:title"})
    if meta and (meta.get("content") or "").strip():
        return " ".join(meta["content"].split())
    h1 = soup.find("h1")
    return text_of(h1) if h1 else ""


def to_markdown(html: str | bytes, base_url: str | None = None, *, raw: bool = False,
                parser: str | None = None, deadline: float | None = None) -> Page:
    """Convert an HTML document to markdown, in time linear in its size.

    Args:
        html: the document (bytes are decoded by bs4's own detection).
        base_url: where the page came from; links and images are made absolute against
            it (a ``<base href>`` in the page takes precedence, as in a browser).
        raw: skip all cleaning: convert the whole document, chrome included.
        parser: bs4's parser name; default lxml if installed, else html.parser.
        deadline: a ``time.monotonic()`` time: a page with more than ``TREE_TAGS`` start
            tags is cut there (``Page.cut``, the markdown's last line says so); a smaller
            one still converting then is TIMEOUT.

    Raises:
        JqMagicError: TIMEOUT when the deadline passes while a tree is being converted.
    """
    if isinstance(html, bytes):
        html = UnicodeDammit(html, is_html=True).unicode_markup or ""
    html = slim_tags(html)
    if len(_START_TAG.findall(html)) > TREE_TAGS:
        title, md, cut = stream.convert(html, base_url or "", deadline, raw)
        if cut:
            md += f"\n\n[cut: the page took too long to convert; {_CUT_HINT}]"
        return Page(title=title, markdown=tidy(md), cut=cut)
    clock = _Clock(deadline)
    soup = parse(html, parser)
    clock.check()
    flatten_deep(soup)
    reopen_title(soup, parser)
    title = extract_title(soup)
    meta = page_meta(soup)
    base = _base_url(soup, base_url)
    threads: list = []
    if raw:
        root = soup
    else:
        reopen_body(soup)
        _drop_junk(soup)
        drop_widgets(soup.body or soup)
        threads = take_comments(soup.body or soup)
        clock.check()
        root = main_content(soup, clock.check) or soup.body or soup
        root = settle(root, soup.body or soup)
        drop_title_heading(root, title)
    comments = []
    for thread in threads:
        _absolutize(thread, base)
        comments.append(render(thread, clock.check))
    _absolutize(root, base)
    clock.check()
    return Page(title=title, markdown=render(root, clock.check), byline=meta.byline,
                published=meta.published, comments="\n\n".join(filter(None, comments)))


_CUT_HINT = "fetch a smaller page, or the site's JSON or text form of it"


class _Clock:
    """Checks a deadline between the steps of a conversion (each step is linear)."""

    def __init__(self, deadline: float | None):
        self.deadline = deadline

    def check(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise JqMagicError("TIMEOUT", "Converting the page to markdown ran past the "
                               "fetch's deadline", _CUT_HINT[0].upper() + _CUT_HINT[1:] + ".")


def render(root: Any, check: Any = None) -> str:
    """Render a bs4 tree (already cleaned) as markdown; ``check()`` is called before each
    element (a deadline's clock)."""
    converter = _Converter(
        heading_style=ATX,
        bullets="-",
        escape_underscores=False,
        code_language_callback=code_language,
        sup_symbol="<sup>",
        sub_symbol="<sub>",
        strip=["button", "input", "select", "textarea", "form"],
    )
    converter.check = check
    return tidy(converter.convert_soup(root))


def code_language(pre: Any) -> str:
    """The language a ``<pre>`` (or its ``<code>``) names in its classes, or ""."""
    nodes = [pre, *pre.find_all("code", limit=1)]
    for node in nodes:
        lang = node.get("data-lang") or node.get("data-language")
        if lang:
            return str(lang).lower()
        for cls in node.get("class") or []:
            m = _LANG_CLASS.match(cls)
            if m and m.group(1).lower() not in ("none", "plaintext", "nohighlight"):
                return m.group(1).lower()
            if cls.lower() in _KNOWN_LANGS:
                return cls.lower()
    # The wrapper may name it: GitHub's highlight-source-rust, Sphinx's
    # <div class="highlight-python3"><div class="highlight"><pre>.
    for parent in (pre.parent, pre.parent.parent if pre.parent is not None else None):
        for cls in (parent.get("class") or []) if parent is not None else []:
            m = _LANG_CLASS.match(cls)
            if m and m.group(1).lower() not in ("source", "none", "default"):
                return m.group(1).lower()
    return ""


def tidy(md: str) -> str:
    """Collapse runs of blank lines and trailing spaces outside fenced code blocks."""
    out: list[str] = []
    fence = False
    blank = 0
    for line in md.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
            blank = 0
            out.append(line.rstrip())
            continue
        if fence:
            out.append(line)
            continue
        hard_break = line.endswith("  ") and line.strip()  # keep markdown's "  \n"
        line = line.rstrip() + ("  " if hard_break else "")
        if not line.strip():
            blank += 1
            if blank > 1:
                continue
            line = ""
        else:
            blank = 0
        out.append(line)
    return "\n".join(out).strip("\n") + "\n" if any(s.strip() for s in out) else ""


def is_permalink(a: Any) -> bool:
    """A link that is only a sign: a heading's or definition's own anchor (Sphinx's "¶",
    rustdoc's "§") or a script's toggle (rustdoc's "[−]")."""
    return (a.get("href") or "").startswith(("#", "javascript:")) and \
        0 < len(a.get_text().strip()) <= 3 and not any(c.isalnum() for c in a.get_text())


def signature(dt: Any) -> str | None:
    """An API signature's text when ``dt`` is one (Sphinx's ``dt.sig`` or its descname),
    without its permalink; else None."""
    if "sig" not in (dt.get("class") or []) and not dt.find(class_=["sig-name", "descname"]):
        return None
    parts = [s for s in dt.find_all(string=True)
             if not any(p.name == "a" and is_permalink(p) for p in s.parents)]
    sig = " ".join("".join(parts).split())
    return re.sub(r"\s+(?=[,)\]])|(?<=[(\[])\s+", "", sig) or None


class _Converter(MarkdownConverter):
    """markdownify with tweaks: no empty links, pre keeps raw text, lazy images; an API
    signature as code, an admonition as a quote under its bold title, a formula as
    ``$TeX$``."""

    check: Any = None

    def process_tag(self, node: Any, parent_tags: Any = None) -> str:
        if self.check is not None:
            self.check()
        return super().process_tag(node, parent_tags)

    def convert_a(self, el: Any, text: str, parent_tags: Any) -> str:
        if not text.strip() or is_permalink(el):
            return ""
        href = el.get("href") or ""
        if href.startswith(("javascript:", "#")) or not href:
            return text
        return super().convert_a(el, text, parent_tags)

    def convert_img(self, el: Any, text: str, parent_tags: Any) -> str:
        tex = math_image_tex(el)
        if tex:
            return tex
        if not el.get("src"):
            return el.get("alt") or ""
        return super().convert_img(el, text, parent_tags)

    def convert_math(self, el: Any, text: str, parent_tags: Any) -> str:
        return math_markdown(el)

    def convert_dt(self, el: Any, text: str, parent_tags: Any) -> str:
        sig = signature(el)
        if sig is None or "_inline" in parent_tags:
            return super().convert_dt(el, text, parent_tags)
        tick = "``" if "`" in sig else "`"
        return f"\n\n{tick}{sig}{tick}\n"

    def convert_div(self, el: Any, text: str, parent_tags: Any) -> str:
        if "admonition" in (el.get("class") or []) and "_inline" not in parent_tags:
            return "\n" + self.convert_blockquote(el, text, parent_tags)
        return super().convert_div(el, text, parent_tags)

    convert_aside = convert_section = convert_div

    def convert_p(self, el: Any, text: str, parent_tags: Any) -> str:
        if "admonition-title" in (el.get("class") or []) and text.strip():
            text = f"**{text.strip()}**"
        return super().convert_p(el, text, parent_tags)

    def convert_pre(self, el: Any, text: str, parent_tags: Any) -> str:
        # Use the element's own text: markdownify would escape or reflow markup inside.
        code = el.get_text()
        if not code.strip():
            return ""
        lang = code_language(el)
        fence = "````" if "```" in code else "```"
        code = code.strip("\n")
        return f"\n\n{fence}{lang}\n{code}\n{fence}\n\n"


def _base_url(soup: Any, base_url: str | None) -> str:
    base = soup.find("base", href=True)
    if base:
        return urljoin(base_url or "", base["href"])
    return base_url or ""


_HEAD_TAGS = {"title", "meta", "link", "script", "style", "base", "noscript", "template"}
# Elements only a body holds: a <body> tag inside one is no body.
_IN_BODY = ["table", "div", "p", "center", "ul", "ol", "dl", "section", "article", "main",
            "form", "span", "font"]


_RUNAWAY_TITLE = 2000  # characters of a <title> past which it is the page, never closed


def reopen_title(soup: Any, parser: str | None) -> None:
    """A ``<title>`` never closed holds the rest of the page as text (a parser reads a
    title as text up to ``</title>``): when it is long and holds markup, the title keeps
    its text up to the first tag and the rest is read as the page's body. html.parser
    nests the page's elements in it instead: they go after it (reopen_body moves them on)."""
    title = soup.title
    first = title.find(True, recursive=False) if title is not None else None
    if first is not None:
        for node in reversed([first, *first.next_siblings]):
            title.insert_after(node.extract())
        return
    text = title.string if title is not None else None
    if not text or len(text) < _RUNAWAY_TITLE or "<" not in text:
        return
    cut = text.index("<")
    title.string = text[:cut].strip()
    rest = parse(text[cut:], parser)
    body = soup.body
    if body is None:
        body = soup.new_tag("body")
        (soup.html or soup).append(body)
    for node in list((rest.body or rest).contents):
        body.append(node.extract())


def reopen_body(soup: Any) -> None:
    """Move what a parser left in ``<head>`` after its first body element, and after the
    ``<body>`` an early ``</body>`` closed, into the body, as a browser's parser does (lxml
    keeps a page in the head after an unknown tag there, and beside the body after
    ``</body>``: a whole story lost); html.parser's body left inside an open head or
    noscript goes after it, and a ``<body>`` tag deep in the page is no body (its text
    stays put)."""
    for stray in soup.find_all("body"):
        if stray.find_parent(_IN_BODY) is not None:
            stray.unwrap()  # a <body> tag inside the page (html.parser makes it an element)
    body, head = soup.body, soup.head
    holder = None  # html.parser nests a body in a <head> or <noscript> left open
    for parent in body.parents if body is not None else ():
        if parent.name in ("head", "noscript"):
            holder = parent
    if holder is not None:
        holder.insert_after(body.extract())
    if body is not None and body.parent is not None and body.parent.name == "html":
        for node in list(body.next_siblings):
            body.append(node.extract())
    if head is None:
        return
    first = next((c for c in head.children if not isinstance(c, Comment) and
                  (getattr(c, "name", None) or "#") not in _HEAD_TAGS and
                  (getattr(c, "name", None) or str(c).strip())), None)
    if first is None:
        return
    if body is None:
        body = soup.new_tag("body")
        head.insert_after(body)
    moving = [first, *first.next_siblings]
    for node in reversed(moving):
        body.insert(0, node.extract())


def _drop_junk(soup: Any) -> None:
    for node in soup.find_all(string=lambda s: isinstance(
            s, (Comment, Doctype, ProcessingInstruction))):
        node.extract()
    total = len(text_of(soup.body or soup))
    for el in soup.find_all(_JUNK_TAGS):
        if decomposed(el):
            continue
        if el.name == "noscript" and len(text_of(el)) > total / 2:
            el.unwrap()  # an unclosed <noscript> the page's content is stuck in
        else:
            el.decompose()
    open_objects(soup)
    for el in soup.find_all("summary", class_="hideme"):  # rustdoc's "Expand description"
        el.decompose()
    for el in soup.find_all(["div", "section", "aside", "dialog", "form"]):
        if decomposed(el):
            continue
        names = " ".join(el.get("class") or []) + " " + (el.get("id") or "")
        if _COOKIE.search(names) and len(text_of(el)) < 2000:
            el.decompose()
    for img in soup.find_all("img"):
        placeholder = not img.get("src") or img["src"].startswith("data:")
        if placeholder or "lazy" in " ".join(img.get("class") or []).lower():
            # A "lazy" image's src is often a placeholder (lazy-loading-14x9.png).
            for attr in LAZY_SRC:
                if img.get(attr):
                    img["src"] = img[attr]
                    break
            else:
                srcset = img.get("data-srcset") or (img.get("srcset") if placeholder else "")
                if (srcset or "").strip():
                    img["src"] = srcset.split(",")[0].split()[0]


def open_objects(soup: Any) -> None:
    """Unwrap each ``<object>`` with text in it, its ``<param>``s dropped: that text is the
    fallback a browser shows when it cannot run the object (a Flash player's, in every
    browser today), a video's caption often. Innermost first; an ``<embed>`` is unwrapped
    too (a parser that does not know it as empty puts what follows inside it)."""
    for el in reversed(soup.find_all("object")):
        if decomposed(el) or not text_of(el):
            continue
        for kid in el.find_all(["param", "embed"]):
            if kid.name == "param":
                kid.decompose()
            else:
                kid.unwrap()
        el.unwrap()


def _absolutize(root: Any, base: str) -> None:
    if not base:
        return
    for tag, attr in (("a", "href"), ("img", "src"), ("source", "src"), ("video", "src")):
        for el in root.find_all(tag):
            value = el.get(attr)
            if value and not value.startswith(("#", "javascript:", "mailto:", "data:")):
                try:
                    el[attr] = urljoin(base, value.strip())
                except ValueError:
                    continue
