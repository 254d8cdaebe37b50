"""A hint's suggested path is tried before it is offered: 50 typo'd paths on the shared
corpus (a key misspelt, a ``[]`` left out), and every path a hint suggests answers when
followed, in jq, on the same file (issue 42)."""

from __future__ import annotations

import random
import re

import pytest

from jqmagic import query
from jqmagic.core import sources
from jqmagic.core.options import Source
from jqmagic.core.shape.hints import hint_for, hint_for_source
from tests.shared import CORPUS_JSON

FILES = ["compose/docker-elk-docker-compose.yml", "compose/opentelemetry-demo-compose.yaml",
         "geojson/world-countries.geo.json", "jsonl/gsm8k-test.jsonl",
         "k8s/ingress-nginx-cloud-deploy.yaml", "npm/axios-package.json",
         "npm/axios-package-lock.json"]
SUGGESTED = re.compile(r"(?:try|did you mean) (\S+?)\??$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _typo(key: str, rng: random.Random) -> str:
    """``key`` misspelt as people misspell: a letter dropped, doubled or swapped, a plural."""
    at = rng.randrange(len(key))
    forms = [key[:at] + key[at + 1:], key[:at] + key[at] + key[at:], key + "s",
             key[:-1] if key.endswith("s") else key + "e"]
    if len(key) > 1:
        at = min(at, len(key) - 2)
        forms.append(key[:at] + key[at + 1] + key[at] + key[at + 2:])
    return rng.choice([f for f in forms if f and f != key and _NAME.match(f)] or [key + "x"])


def _typod_path(inputs: list, rng: random.Random) -> str | None:
    """A path that exists in one of ``inputs``, then one of its keys misspelt or one of its
    ``[]`` left out."""
    value, steps = rng.choice(inputs), []
    for _ in range(rng.randint(1, 4)):
        if isinstance(value, dict):
            keys = [k for k in value if _NAME.match(k)]
            if not keys:
                break
            key = rng.choice(keys)
            steps.append(f".{key}")
            value = value[key]
        elif isinstance(value, list) and value:
            steps.append("[]")
            value = rng.choice(value)
        else:
            break
    keys = [n for n, s in enumerate(steps) if s.startswith(".")]
    iterations = [n for n, s in enumerate(steps) if s == "[]" and n + 1 < len(steps)]
    if not keys:
        return None
    if iterations and rng.random() < 0.3:
        del steps[rng.choice(iterations)]
    else:
        at = rng.choice(keys)
        steps[at] = "." + _typo(steps[at][1:], rng)
    return "".join(steps)


def _programs() -> list[tuple[str, str]]:
    rng = random.Random(42)
    out: list[tuple[str, str]] = []
    values = {name: sources.load_values(Source("file", str(CORPUS_JSON / name)))
              for name in FILES}
    while len(out) < 50:
        name = FILES[len(out) % len(FILES)]
        program = _typod_path(values[name], rng)
        if program is not None and (name, program) not in out:
            out.append((name, program))
    return out


@pytest.mark.skipif(not CORPUS_JSON.is_dir(), reason=f"the corpus is not at {CORPUS_JSON}")
def test_no_hint_on_the_corpus_fails_when_followed():
    offered = 0
    for name, program in _programs():
        path = str(CORPUS_JSON / name)
        hint = hint_for_source(program, Source("file", path), results=[None])
        found = SUGGESTED.search(hint)
        if found is None:
            continue
        offered += 1
        values = query(found[1], file=path).values  # an error fails the test
        assert any(v is not None for v in values), (name, program, hint)
    assert offered >= 30  # most typos get a way on


@pytest.mark.parametrize("program, document, hint", [
    (".users[] | .name", {"user": {"name": "a"}}, "did you mean .user.name?"),
    (".users[].name", {"user": [{"name": "a"}]}, "did you mean .user[].name?"),
    (".items.nme", {"items": [{"name": "a"}]}, "try .items[].name"),
    (".usr.x", {"user": {"name": "a"}}, "did you mean .user?"),
    (".itms.id", {"items": [1, 2]}, "did you mean .items?"),
    (".a.b", {"a": [[1], [2]]}, "at .a there is an array of 2 arrays; try .a[]"),
])
def test_a_suggested_path_is_fitted_to_the_shape_or_cut_back(program, document, hint):
    said = hint_for(program, document, results=[])
    assert said.endswith(hint)
