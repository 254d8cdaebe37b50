"""Held-out-like JSON Lines: an event log whose numbers include ``-0.0``, ``1.0``, ``1e-05``
and integers past 2^53, whose strings are not all ASCII (``Straße``, final sigma), with
nulls and optional arrays; and a generator of questions over it that nobody hand-picks
(issues 53 and 57).

    python bench/heldout.py data MB        -> the file's path (under /tmp), stdout
    python bench/heldout.py questions N [SEED]   -> N generated questions, one a line
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from formatsdata import json_line, written_once  # bench/ is on the path when run

DATA = Path("/tmp/jqmagic-heldout")

KINDS = ["view", "click", "buy", "refund", "signup", "logout"]
NAMES = ["Straße", "STRASSE", "strasse", "Σίσυφος", "ΟΔΥΣΣΕΥΣ", "ὀδυσσεύς", "zoë", "Chloé",
         "ﬁnn", "İlker", "ilker", "KELVIN", "Ævar", "李雷", "ИВАН", "mary-jane", "O'Neil",
         "bob", "Alice", "émile"]
CITIES = ["Zürich", "São Paulo", "Köln", "Москва", "Αθήνα", "Paris", "NYC", "Kraków"]
TAGS = ["new", "ß", "vip", "promo", "Σ", "beta", "ﬂash", "sale"]
AMOUNTS = [-0.0, 0.0, 1.0, 1e-05, 12.5, 3, 100, 0.1, 2.75, -4.5, 19.99, 1e-07, 250.0, 0, -0.0]
SKUS = ["A-1", "B-22", "C-333", "d-4", "É-5"]


def event(rng: random.Random, n: int) -> dict:
    """One event as a Python or JavaScript service writes it (fields come and go)."""
    day, second = rng.randrange(1, 29), rng.randrange(86400)
    value: dict = {
        "id": f"ev-{n:07d}", "kind": rng.choice(KINDS),
        "ts": f"2025-03-{day:02d}T{second // 3600:02d}:{second // 60 % 60:02d}:"
              f"{second % 60:02d}Z",
        "user": {"id": 9007199254740993 + n if rng.random() < 0.05 else rng.randrange(1, 10**6),
                 "name": rng.choice(NAMES)},
        "amount": rng.choice(AMOUNTS) if rng.random() < 0.9 else None,
        "score": rng.choice([-0.0, 1.0, round(rng.uniform(-50, 50), 3)]),
        "ok": rng.random() < 0.8,
    }
    roll = rng.random()
    if roll < 0.5:
        value["tags"] = rng.sample(TAGS, rng.randrange(0, 4))
    elif roll < 0.6:
        value["tags"] = None
    if rng.random() < 0.4:
        value["items"] = [{"sku": rng.choice(SKUS), "qty": rng.randrange(0, 5),
                           "price": rng.choice([1.0, 19.99, 0.5, -0.0, 1e-05, 7])}
                          for _ in range(rng.randrange(0, 4))]
    if rng.random() < 0.7:
        value["geo"] = {"city": rng.choice(CITIES), "lat": round(rng.uniform(-90, 90), 4)} \
            if rng.random() < 0.9 else None
    if rng.random() < 0.3:
        value["note"] = rng.choice(["ok", "naïve café", "größer", "ΣΑΣ", "", None])
    return value


def events_file(megabytes: int) -> Path:
    """The log of about ``megabytes`` MB under /tmp (made once, deterministically)."""
    return written_once(DATA / f"heldout-{megabytes}mb.jsonl", megabytes, 53,
                        lambda rng, n: json_line(event(rng, n)))


NUMBERS = [".amount", ".score", ".user.id", ".geo.lat"]
STRINGS = [".id", ".kind", ".user.name", ".geo.city", ".note", ".ts"]
PATTERNS = ["straße", "^str", "σ", "ss", "^o", "é", "[a-z]+-[a-z]+", "fin", "ilker", "^k"]
FLAGS = ["", "i", "i", "x"]


def question(rng: random.Random) -> str:
    """One `-n` question over the log, drawn from the shapes analysts ask."""
    num, num2, s = rng.choice(NUMBERS), rng.choice(NUMBERS), rng.choice(STRINGS)
    kind, n = rng.choice(KINDS), rng.randrange(1, 6)
    pattern, flags = rng.choice(PATTERNS), rng.choice(FLAGS)
    test = f'test("{pattern}"; "{flags}")' if flags else f'test("{pattern}")'
    shapes = [
        f'first(inputs | select(.kind == "{kind}"))',
        f'first(inputs | select(.id == "ev-{rng.randrange(50000):07d}"))',
        f"[inputs | {s}]",
        f"[inputs | {num}]",
        f"[inputs | {num}] | add",
        f"[inputs | {num} // empty] | min",
        f"[inputs | {num} // empty] | max",
        f"[inputs | {num}] | unique",
        f"[inputs | {num} | numbers] | sort | .[:{n}]",
        f"[inputs | select({num} == 0)] | length",
        f"[inputs | select({num} < 0)] | length",
        f"[limit({n}; inputs | select(.kind == \"{kind}\") | {num})]",
        f"[limit({n}; inputs | select(.kind == \"{kind}\"))]",
        f"[inputs | select({s} | strings | {test})] | length",
        f"[inputs | {s} | strings | select({test})] | unique",
        f"[inputs | .tags[]? | select({test})] | length",
        "[inputs | .tags[]? | length] | add / length",
        "[inputs | .tags[]?] | group_by(.) | map({k: .[0], n: length})",
        "[inputs | .items[]?.price] | max",
        "[inputs | .items[]? | .qty * .price] | add",
        f"[inputs | {{id, v: {num}}}] | .[:{n}]",
        f"[inputs | {num}] | group_by(.) | map([.[0], length])",
        f"reduce inputs as $e ({{}}; .[$e.kind] += ($e{num} // 0))",
        f"reduce inputs as $e ({{}}; .[$e{s} // \"none\" | tostring] += 1) | length",
        f"[inputs | select(.kind == \"{kind}\") | {num}] | add",
        f"[inputs | {num} | tostring] | unique | .[:{n + 3}]",
        f"[inputs | {num} | tojson] | unique | length",
        f"[inputs | {num}?] | map(select(. != null)) | sort_by(.) | .[-{n}:]",
        f"[inputs | select({num} != null) | {num}, {num2}] | length",
        "[inputs | .geo.city // \"none\"] | unique",
        "[inputs | .note | strings | ascii_downcase] | unique",
        f"[inputs | .user | select(.name | {test}) | .id] | .[:{n}]",
        f"[inputs | select(.ok) | {num}] | min_by(.)",
        f"[inputs | {{kind, a: {num}}}] | group_by(.kind) | map({{k: .[0].kind, "
        f"total: (map(.a // 0) | add)}})",
        "[inputs | .ts | fromdateiso8601 | strftime(\"%H\")] | group_by(.) | map(length) | max",
        f"[inputs | select(.user.name | ascii_downcase | {test})] | length",
        f"[inputs | {num} | abs] | add",
        f"[inputs | -({num} // 0)] | .[:{n + 5}]",
        f"[inputs | {num}] | map(. // 0) | add / length",
        "[inputs | .user.id] | max",
        "[inputs | select(.user.id > 9007199254740992) | .user.id] | .[:3]",
        "[inputs | .items // [] | length] | add",
        f"[inputs | {num} | floor?] | unique | length",
    ]
    return rng.choice(shapes)


def questions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [question(rng) for _ in range(count)]


def main() -> None:
    what = sys.argv[1]
    if what == "data":
        print(events_file(int(sys.argv[2])))
    else:
        print("\n".join(questions(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3
                                  else 53)))


if __name__ == "__main__":
    main()
