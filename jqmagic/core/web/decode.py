"""What a fetched body is (HTML, JSON, text) and its text, whatever its charset."""

from __future__ import annotations

import codecs
import json
import re
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web.download import redact
from jqmagic.core.words import term

_MULTIBYTE = {"shift_jis", "cp932", "euc_jp", "iso2022_jp", "gb2312", "gbk", "gb18030",
              "big5", "big5hkscs", "euc_kr", "cp949", "utf_16", "utf_32", "cp950"}
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.I)

def kind_of(ctype: str, body: bytes) -> str:
    if ctype in _HTML_TYPES:
        return "html"
    if ctype in ("application/json", "text/json") or ctype.endswith("+json"):
        return "json"
    if ctype.startswith("text/") or ctype in ("application/xml", "application/yaml",
                                             "application/x-yaml", "application/javascript",
                                             "application/x-ndjson", "application/jsonl"):
        return "text"
    if not ctype or ctype in ("application/octet-stream", "binary/octet-stream"):
        head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        if head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")):
            return "html"
        if head[:1] in (b"{", b"["):
            try:
                json.loads(body)
                return "json"
            except ValueError:
                pass
        if b"\x00" not in body[:4096]:
            return "text"
    raise JqMagicError(
        "PARSE_ERROR",
        f"Cannot convert content type {ctype or 'unknown'!r} to text",
        "Only HTML, JSON and text documents are fetched; download binaries another way.",
    )


def parse_json(body: bytes, url: str) -> Any:
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise JqMagicError(
            "PARSE_ERROR", f"Failed to parse JSON from {redact(url)}: {exc}",
            "The server said JSON but sent something else. Fetch it without "
            f"{term('fetch_jq')} to see it.",
        ) from exc


def decode(body: bytes, content_type: str = "", *, html: bool = False) -> str:
    """Bytes to text: charset from the header, else the document (BOM, <meta>), else
    UTF-8 if it decodes, else a guess; unknown charsets fall back the same way and bad
    bytes become U+FFFD rather than failing."""
    candidates = []
    m = re.search(r"charset\s*=\s*[\"']?([\w.:-]+)", content_type, re.I)
    if m:
        candidates.append(m.group(1))
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                     (codecs.BOM_UTF16_BE, "utf-16")):
        if body.startswith(bom):
            candidates.insert(0, enc)
    if html:
        m2 = _META_CHARSET.search(body[:4096])
        if m2:
            candidates.append(m2.group(1).decode("ascii", "ignore"))
    for name in candidates:
        try:
            codec = codecs.lookup(name)
        except LookupError:
            continue
        return body.decode(codec.name, errors="replace")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        from charset_normalizer import from_bytes

        # Trust the guess only for multi-byte encodings (a strong signal); on short text
        # its single-byte guesses are often wrong, and cp1252 is the web's default.
        best = from_bytes(body[:200_000]).best()
        if best is not None and best.encoding in _MULTIBYTE:
            return body.decode(best.encoding, errors="replace")
    except ImportError:  # pragma: no cover - requests brings charset_normalizer
        pass
    return body.decode("cp1252", errors="replace")


