"""Formulas as markdown math: ``$...$`` (``$$...$$`` for display), from a MathML element's
TeX (its ``alttext`` or TeX annotation), from a formula image's alt text (Wikipedia's
fallback images), or from the MathML itself written out linearly (``x^{2}``, ``a_{i}``,
``\\frac{n}{d}``, ``\\sqrt{x}``) when it has no TeX."""

from __future__ import annotations

import re
from typing import Any

_MATH_IMG = re.compile(r"(^|[-_ ])(math|tex|latex)([-_ ]|$)", re.I)
_WS = re.compile(r"\s+")


def math_image_tex(img: Any) -> str | None:
    """The TeX of an image that shows a formula (class names it math/tex), or None."""
    alt = (img.get("alt") or "").strip()
    names = " ".join(img.get("class") or [])
    if not alt or not _MATH_IMG.search(names.replace("mwe-math", "math")):
        return None
    return _wrap(alt, "display" in names)


def math_markdown(el: Any) -> str:
    """A ``<math>`` element as markdown math."""
    tex = (el.get("alttext") or "").strip()
    if not tex:
        ann = el.find("annotation", attrs={"encoding": re.compile("tex", re.I)})
        tex = ann.get_text().strip() if ann else _linear(el)
    return _wrap(tex, el.get("display") == "block") if tex else ""


def _wrap(tex: str, display: bool) -> str:
    tex = _WS.sub(" ", tex).strip()
    return f"\n\n$${tex}$$\n\n" if display else f"${tex}$"


def _group(el: Any) -> str:
    text = _linear(el)
    return text if len(text) == 1 else "{" + text + "}"


def _linear(el: Any) -> str:
    """MathML written out as TeX-style text (a formula without TeX of its own)."""
    name = getattr(el, "name", None)
    if name is None:
        return _WS.sub(" ", str(el)).strip()
    kids = [k for k in el.children if getattr(k, "name", None) or str(k).strip()]
    parts = [_linear(k) for k in kids]
    if name in ("msup", "mover") and len(kids) == 2:
        return f"{_group(kids[0])}^{_group(kids[1])}"
    if name in ("msub", "munder") and len(kids) == 2:
        return f"{_group(kids[0])}_{_group(kids[1])}"
    if name in ("msubsup", "munderover") and len(kids) == 3:
        return f"{_group(kids[0])}_{_group(kids[1])}^{_group(kids[2])}"
    if name == "mfrac" and len(kids) == 2:
        return f"\\frac{{{parts[0]}}}{{{parts[1]}}}"
    if name == "msqrt":
        return f"\\sqrt{{{' '.join(parts)}}}"
    if name == "mroot" and len(kids) == 2:
        return f"\\sqrt[{parts[1]}]{{{parts[0]}}}"
    if name == "annotation" or name == "annotation-xml":
        return ""
    if name == "mtr":
        return " & ".join(parts)
    if name == "mtable":
        return "\\begin{matrix} " + " \\\\ ".join(parts) + " \\end{matrix}"
    return " ".join(p for p in parts if p)
