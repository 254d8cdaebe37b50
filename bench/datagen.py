"""Deterministic benchmark inputs under bench/data/: arrays, JSON Lines, an API spec, YAML."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta", "lambda"]
LANGUAGES = ["Python", "Rust", "Go", "C", "JavaScript", None]


def repository(rng: random.Random, n: int) -> dict:
    """One GitHub-like repository (about 270 bytes of JSON)."""
    login = f"user{rng.randrange(40_000)}"
    return {
        "id": 10_000_000 + n,
        "name": f"{rng.choice(WORDS)}-{n}",
        "owner": {"login": login, "id": rng.randrange(10**7), "site_admin": rng.random() < 0.01},
        "private": rng.random() < 0.1,
        "description": rng.choice([None, "A tool", "Library for " + rng.choice(WORDS)]),
        "language": rng.choice(LANGUAGES),
        "stars": rng.randrange(5000),
        "score": round(rng.random() * 1000, 2),
        "topics": rng.sample(WORDS, rng.randint(0, 3)),
        "created_at": f"20{rng.randint(10, 24)}-{rng.randint(1, 12):02}-{rng.randint(1, 28):02}",
    }


def _write(path: Path, megabytes: int, head: str, sep: str, tail: str) -> Path:
    """Write repositories joined by ``sep`` until ``megabytes`` MB; atomic."""
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    rng, target = random.Random(megabytes), megabytes * 2**20
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(head)
        size, n = 0, 0
        while size < target:
            text = (sep if n else "") + json.dumps(repository(rng, n), separators=(",", ":"))
            out.write(text)
            size, n = size + len(text), n + 1
        out.write(tail)
    os.replace(tmp, path)
    return path


def array_file(megabytes: int) -> Path:
    """A top-level array of repositories."""
    return _write(DATA / f"repos-{megabytes}mb.json", megabytes, "[", ",", "]\n")


def jsonl_file(megabytes: int) -> Path:
    """The same repositories, one per line."""
    return _write(DATA / f"repos-{megabytes}mb.jsonl", megabytes, "", "\n", "\n")


def openapi_doc(paths: int = 3000) -> dict:
    """A deep OpenAPI-like document: paths -> methods -> responses -> schemas."""
    rng = random.Random(paths)

    def schema(depth: int) -> dict:
        if depth == 0:
            return {"type": rng.choice(["string", "integer", "boolean"])}
        props = {f"{rng.choice(WORDS)}{i}": schema(depth - 1) for i in range(rng.randint(1, 3))}
        return {"type": "object", "properties": props, "required": sorted(props)[:1]}

    return {"openapi": "3.1.0", "info": {"title": "Bench API", "version": "1.0"},
            "paths": {f"/v1/{rng.choice(WORDS)}/{i}": {
                method: {"operationId": f"{method}{i}", "tags": [rng.choice(WORDS)],
                         "responses": {"200": {"content": {"application/json": {
                             "schema": schema(rng.randint(2, 5))}}}}}
                for method in rng.sample(["get", "post", "put", "delete"], rng.randint(1, 3))}
                for i in range(paths)}}


def openapi_file(paths: int = 3000) -> Path:
    path = DATA / f"openapi-{paths}.json"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(openapi_doc(paths), indent=1), encoding="utf-8")
    return path


def yaml_file(paths: int = 300) -> Path:
    """The OpenAPI-like document as YAML (block style)."""
    import yaml

    path = DATA / f"openapi-{paths}.yaml"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(openapi_doc(paths), sort_keys=False), encoding="utf-8")
    return path
