"""The main-content methods the HTML benches compare, one definition for all of them
(bench/score_html.py, bench/crossval_html.py, bench/public_html.py): each takes
``(html, base_url)`` and returns markdown or text.

trafilatura, readability-lxml and jusText are bench-only (``pip install -e '.[bench]'``);
a method whose library is missing raises ImportError when called.
"""

from __future__ import annotations

import re


def m_jqmagic(html: str, base: str) -> str:
    from jqmagic.core.web.html import to_markdown

    return to_markdown(html, base).markdown


def m_jqmagic_comments(html: str, base: str) -> str:
    """The body with the page's reader comments (its ``comments`` field) after it, as
    trafilatura's default (include_comments=True) returns them: a reading, not the product."""
    from jqmagic.core.web.html import to_markdown

    page = to_markdown(html, base)
    return page.markdown + "\n\n" + page.comments if page.comments else page.markdown


def m_jqmagic_stdlib(html: str, base: str) -> str:
    from jqmagic.core.web.html import to_markdown

    return to_markdown(html, base, parser="html.parser").markdown


def _trafilatura(html: str, base: str, **kw: bool) -> str:
    import trafilatura

    return trafilatura.extract(html, url=base, output_format="markdown", include_tables=True,
                               include_links=True, include_formatting=True, **kw) or ""


def m_trafilatura(html: str, base: str) -> str:
    return _trafilatura(html, base)


def m_trafilatura_precision(html: str, base: str) -> str:
    return _trafilatura(html, base, favor_precision=True)


def m_trafilatura_recall(html: str, base: str) -> str:
    return _trafilatura(html, base, favor_recall=True)


def m_readability(html: str, base: str) -> str:
    """readability-lxml's HTML, rendered by jqmagic's renderer."""
    from readability import Document

    from jqmagic.core.web.html import parse, render

    return render(parse(Document(html, url=base).summary(html_partial=True)))


# <html lang> -> jusText's stoplist name (English when the page says nothing it knows).
_JUSTEXT_LANGS = {"de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
                  "pt": "Portuguese", "nl": "Dutch", "ru": "Russian", "pl": "Polish",
                  "cs": "Czech", "sv": "Swedish", "tr": "Turkish", "ja": "Japanese",
                  "zh": "Chinese", "ko": "Korean", "fi": "Finnish", "el": "Greek",
                  "hu": "Hungarian", "ro": "Romanian", "vi": "Vietnamese"}


def m_justext(html: str, base: str) -> str:
    import justext

    m = re.search(r"<html[^>]*\slang\s*=\s*[\"']?([a-zA-Z]{2})", html[:5000])
    lang = _JUSTEXT_LANGS.get(m.group(1).lower(), "English") if m else "English"
    try:
        stop = justext.get_stoplist(lang)
    except ValueError:
        stop = justext.get_stoplist("English")
    paras = justext.justext(html, stop)
    return "\n\n".join(p.text for p in paras if not p.is_boilerplate)
