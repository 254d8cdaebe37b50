"""Realistic sample documents for the tour and the tests, made deterministically."""

from __future__ import annotations

import json
import random
from pathlib import Path

_LANGUAGES = ["Python", "Rust", "Go", "TypeScript", "C", None]
_OWNERS = ["octo", "ada", "linus", "grace", "guido", "rob", "ken", "margaret"]


def repos(count: int = 300, seed: int = 7) -> list[dict]:
    """A GitHub-like API dump: repositories with owners, topics and counts."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        owner = rng.choice(_OWNERS)
        repo = {
            "id": 900000000000 + i,
            "full_name": f"{owner}/project-{i}",
            "owner": {"login": owner, "type": rng.choice(["User", "Organization"])},
            "language": rng.choice(_LANGUAGES),
            "stargazers_count": rng.randint(0, 5000),
            "fork": rng.random() < 0.2,
            "topics": rng.sample(["cli", "json", "jq", "data", "web", "ml"], rng.randint(0, 3)),
            "created_at": f"20{rng.randint(10, 25)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
        }
        if rng.random() < 0.3:
            repo["license"] = {"spdx_id": rng.choice(["MIT", "Apache-2.0", "GPL-3.0"])}
        out.append(repo)
    return out


def events(count: int = 500, seed: int = 11) -> list[dict]:
    """Application log events, one JSON object a line."""
    rng = random.Random(seed)
    return [{"ts": 1700000000 + 37 * i, "level": rng.choices(["info", "warn", "error"],
                                                             [80, 15, 5])[0],
             "service": rng.choice(["api", "worker", "web"]), "ms": rng.randint(1, 900)}
            for i in range(count)]


_CITIES = ["Osaka", "Kobe", "Lyon", "Paris", "Porto", "Lima", "Quito", "Oslo", "Turin"]
_CARRIERS = ["La Poste", "Yamato", "DHL", "UPS", "Sagawa", "GLS"]
_NAMES = ["aiko", "bruno", "chloe", "dmitri", "emeka", "fatima", "goran", "hana"]


def customers(count: int = 300, seed: int = 41) -> list[dict]:
    """A shop's customers with their orders (nested objects in arrays); 220,000 of them
    are 55 MB of JSON text, as big as the variable issue 41 browsed."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        name = rng.choice(_NAMES)
        out.append({
            "id": i, "name": f"{name.title()} {i}", "email": f"{name}.{i}@example.com",
            "phone": f"+81-6-{i:06d}-{rng.randint(1000, 9999)}",
            "city": rng.choice(_CITIES), "tier": rng.choice(["gold", "silver", "bronze"]),
            "since": f"20{rng.randint(10, 25)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
            "orders": [{"total": rng.randint(5, 500), "shipping": {
                "carrier": rng.choice(_CARRIERS), "city": rng.choice(_CITIES)}}
                for _ in range(rng.randint(0, 2))],
            "notes": rng.choice(["", "gift", "call first", "leave at door"])})
    return out


K8S = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: frontend}
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports: [{containerPort: 80}]
        - name: sidecar
          image: busybox:1.36
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{port: 80, targetPort: 80}]
  selector: {app: web}
"""

PACKAGE = {
    "name": "tour-app", "version": "1.4.0", "private": True,
    "scripts": {"build": "vite build", "test": "vitest"},
    "dependencies": {"react": "^18.3.1", "react-dom": "^18.3.1", "zod": "^3.23.8"},
    "devDependencies": {"vite": "^5.4.0", "vitest": "^2.0.5", "typescript": "^5.5.4"},
}


def write(folder: str | Path = "sample-data") -> dict[str, Path]:
    """Write the samples into ``folder``; return their paths by name."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"repos": folder / "repos.json", "events": folder / "events.jsonl",
             "k8s": folder / "k8s.yaml", "package": folder / "package.json"}
    paths["repos"].write_text(json.dumps(repos(), indent=2) + "\n")
    paths["events"].write_text("".join(json.dumps(e) + "\n" for e in events()))
    paths["k8s"].write_text(K8S)
    paths["package"].write_text(json.dumps(PACKAGE, indent=2) + "\n")
    return paths
