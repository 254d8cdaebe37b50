"""A per-page choice between the two readings of bench/html_designs.py (jqmagic's, "a",
and the structural one, "b"), searched and cross-validated inside the dev split.

Rules "take b when <fact> > t" (one condition) or two such conditions together are searched
over the page's structure facts and facts of what "b" adds to "a" (its length beside "a",
the prose, link and short lines it adds), about 40 thresholds a fact. The search is judged
by what its chosen rule gains on pages it did not see: 5 folds by the SHA-1 of the page's
id, and each collection left out in turn. Offline, on the saved readings (seconds).

    .venv/bin/python bench/html_choice.py [--label f5] [--depth 2]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from score_html import strip_markdown, tokens  # noqa: E402

_WORD = re.compile(r"\w+")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_THRESHOLDS = 40
_PAIRED = 30  # the best one-condition rules a second condition is searched under


def _words(line: str) -> int:
    return len(_WORD.findall(_LINK.sub(r"\1", line)))


def _prose(line: str) -> bool:
    return _words(line) >= 15 and re.search(r"[.!?\u3002]", _LINK.sub(r"\1", line)) is not None


def _linky(line: str) -> bool:
    return bool(_LINK.search(line)) and len(_WORD.findall(_LINK.sub("", line))) <= 2


def facts(row: dict) -> dict:
    """The numbers a rule may read: the page's, and those of what "b" adds to "a"."""
    a, b = row["a_text"], row["b_text"]
    norm_a = " ".join(_WORD.findall(_LINK.sub(r"\1", a).lower()))
    lines_a = [x.strip() for x in a.split("\n") if x.strip()]
    lines_b = [x.strip() for x in b.split("\n") if x.strip()]
    extra = [x for x in lines_b if (n := " ".join(_WORD.findall(_LINK.sub(r"\1", x).lower())))
             and n not in norm_a]
    ta, tb = (tokens(strip_markdown(t), True) for t in (a, b))
    f = {k: float(v) for k, v in row.items()
         if isinstance(v, (int, float)) and not k.endswith("_len")}
    f["found_td"] = float(row["found_tag"] == "td")

    def words(lines: list) -> int:
        return sum(map(_words, lines))
    ew, aw, bw = words(extra), max(words(lines_a), 1), max(words(lines_b), 1)
    f |= {"extra_lines": len(extra), "extra_words": ew,
          "extra_prose": words([x for x in extra if _prose(x)]),
          "extra_linky": words([x for x in extra if _linky(x)]),
          "extra_short": words([x for x in extra if _words(x) < 6]),
          "extra_max": max(map(_words, extra), default=0),
          "extra_tokens": sum((tb - ta).values()), "missing_tokens": sum((ta - tb).values()),
          "a_words": aw, "b_words": bw, "ratio": bw / aw, "a_lines": len(lines_a),
          "b_lines": len(lines_b), "a_prose_share": words([x for x in lines_a if _prose(x)]) / aw,
          "b_prose_share": words([x for x in lines_b if _prose(x)]) / bw,
          "found_share": row.get("found_len", 0) / max(row.get("body_len", 1), 1)}
    f["extra_prose_share"] = f["extra_prose"] / max(ew, 1)
    f["extra_linky_share"] = f["extra_linky"] / max(ew, 1)
    return f


class Search:
    def __init__(self, rows: dict):
        self.f = {i: facts(r) for i, r in rows.items()}
        self.fa = {i: r["a"][2] for i, r in rows.items()}
        self.fb = {i: r["b"][2] for i, r in rows.items()}
        self.names = sorted(next(iter(self.f.values())))

    def score(self, rule: tuple, ids: list) -> float:
        return statistics.fmean(self.fb[i] if self.fires(rule, i) else self.fa[i] for i in ids)

    def fires(self, rule: tuple, i: str) -> bool:
        return bool(rule) and all((self.f[i][k] > t) == (op == ">") for k, op, t in rule)

    def conditions(self, ids: list) -> list:
        out = []
        for k in self.names:
            vals = sorted({self.f[i][k] for i in ids})
            if len(vals) > _THRESHOLDS:
                vals = [vals[len(vals) * q // _THRESHOLDS] for q in range(_THRESHOLDS)]
            out += [(k, op, t) for t in vals for op in (">", "<=")]
        return out

    def best(self, ids: list, depth: int) -> tuple:
        singles = sorted(((self.score((c,), ids), (c,)) for c in self.conditions(ids)),
                         reverse=True)
        found = max(singles[0], (self.score((), ids), ()))
        if depth >= 2:
            for _, (c1,) in singles[:_PAIRED]:
                sub = [i for i in ids if self.fires((c1,), i)]
                for c2 in self.conditions(sub):
                    found = max(found, (self.score((c1, c2), ids), (c1, c2)))
        return found


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", default="f5")
    ap.add_argument("--depth", type=int, default=1)
    args = ap.parse_args()
    rows = json.loads((ROOT / "build" / "html-public" / f"readings-{args.label}.json").read_text())
    s = Search(rows)
    ids = sorted(rows)
    oracle = statistics.fmean(max(s.fa[i], s.fb[i]) for i in ids)
    print(f"a {s.score((), ids):.4f}, b {statistics.fmean(s.fb.values()):.4f}, "
          f"oracle {oracle:.4f}")
    score, rule = s.best(ids, args.depth)
    print(f"best on all of dev: {score:.4f} {rule}")
    splits = {"5 folds": lambda i: str(int(hashlib.sha1(i.encode()).hexdigest()[:4], 16) % 5),
              "a collection left out": lambda i: i.split("/")[0]}
    for name, key in splits.items():
        gain = 0.0
        for part in sorted({key(i) for i in ids}):
            test = [i for i in ids if key(i) == part]
            _, rule = s.best([i for i in ids if key(i) != part], args.depth)
            g = s.score(rule, test) - s.score((), test)
            gain += g * len(test)
            print(f"  {name}: {part}: {rule} gains {g:+.4f} held out")
        print(f"{name}: {gain / len(ids):+.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
