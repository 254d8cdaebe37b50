"""Deterministic inputs of the formats benchmark: JSON Lines events and YAML manifests.

    python bench/formatsdata.py events MB | manifests MB   -> the file's path, stdout
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

_TYPES = ["PushEvent", "WatchEvent", "IssuesEvent", "PullRequestEvent", "ForkEvent",
          "CreateEvent", "IssueCommentEvent", "DeleteEvent"]
_NAMES = ["alice", "Bob", "chloé", "Dmitrî", "émile", "françois", "Γιώργος", "ИВАН", "李雷",
          "mary-jane", "O'Neil", "zoë"]
_WORDS = ["fix", "Add", "update", "refactor", "docs", "bump", "Merge", "test", "typo",
          "naïve", "café", "☃", "release", "revert"]


def event(rng: random.Random, n: int) -> dict:
    """One event line as a JavaScript service writes it (optional fields come and go)."""
    kind = rng.choice(_TYPES)
    login = f"{rng.choice(_NAMES)}{rng.randrange(500)}"
    day, second = rng.randrange(1, 29), rng.randrange(86400)
    value: dict = {
        "id": str(2_489_651_045 + n), "type": kind,
        "actor": {"id": rng.randrange(1, 10**7), "login": login,
                  "url": f"https://api.example.com/users/{login}"},
        "repo": {"id": rng.randrange(1, 10**8),
                 "name": f"{rng.choice(_NAMES).lower()}/{rng.choice(_WORDS).lower()}-"
                         f"{rng.randrange(50)}"},
        "public": rng.random() < 0.97,
        "created_at": f"2025-02-{day:02d}T{second // 3600:02d}:{second // 60 % 60:02d}:"
                      f"{second % 60:02d}Z",
    }
    if kind == "PushEvent":
        value["payload"] = {"size": (k := rng.randrange(0, 5)), "ref": "refs/heads/main",
                            "commits": [{"sha": f"{rng.getrandbits(64):016x}",
                                         "message": " ".join(rng.choices(_WORDS, k=4)),
                                         "distinct": rng.random() < 0.9}
                                        for _ in range(k)]}
    elif kind in ("IssuesEvent", "PullRequestEvent"):
        value["payload"] = {"action": rng.choice(["opened", "closed", "reopened"]),
                            "number": rng.randrange(1, 5000)}
    if rng.random() < 0.3:
        value["org"] = {"id": rng.randrange(1, 10**6), "login": rng.choice(_WORDS).lower()}
    if rng.random() < 0.2:
        value["score"] = round(rng.random() * 100, 2)
    return value


def written_once(path: Path, megabytes: int, seed: int, piece) -> Path:
    """``path``, written the first time it is asked for: ``piece(rng, n)``'s text for
    n = 0, 1, ... until it holds ``megabytes`` MB (through a .part file, so a run
    stopped halfway leaves no file that looks whole)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        rng, n, size = random.Random(seed), 0, 0
        part = path.with_suffix(".part")
        with open(part, "w", encoding="utf-8") as out:
            while size < megabytes << 20:
                text = piece(rng, n)
                out.write(text)
                size += len(text.encode())
                n += 1
        part.rename(path)
    return path


def json_line(value) -> str:
    """``value`` as one compact JSON Lines line."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def events_file(megabytes: int) -> Path:
    return written_once(DATA / f"events-{megabytes}mb.jsonl", megabytes, 29,
                        lambda rng, n: json_line(event(rng, n)))


_MANIFEST = """\
# {name}: generated manifest {n}
# owner: team-{team}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  namespace: {ns}
  labels: &labels
    app: {name}
    tier: {tier}
    managed: {managed}
spec:
  replicas: {replicas}  # scaled by hand
  selector:
    matchLabels: *labels
  template:
    metadata:
      labels:
        <<: *labels
        version: "{version}"
    spec:
      containers:
        - name: {name}
          image: registry.example.com/{name}:{version}
          ports:
            - containerPort: {port}
              protocol: TCP
          env:
            - name: LOG_LEVEL
              value: {level}
            - name: TIMEOUT
              value: "{timeout}"
            - name: RATIO
              value: {ratio}
          resources:
            limits: {{cpu: {cpu}m, memory: {memory}Mi}}
          command:
            - /bin/sh
            - -c
            - |
              echo starting {name}
              exec /app/{name} --port={port}
---
# the service in front of {name}
apiVersion: v1
kind: Service
metadata:
  name: {name}-svc
  namespace: {ns}
  annotations:
    example.com/enabled: {enabled}
    example.com/created: {created}
spec:
  type: ClusterIP
  ports:
    - port: 80
      targetPort: {port}
  selector:
    app: {name}
"""


def _manifest(rng: random.Random, n: int) -> str:
    return _MANIFEST.format(
        n=n, name=f"svc-{n}", team=rng.choice(_NAMES).lower(),
        ns=rng.choice(["default", "prod", "staging", "café"]),
        tier=rng.choice(["web", "api", "worker"]),
        managed=rng.choice(["yes", "no", "true", "off"]),
        replicas=rng.randrange(1, 12), version=f"1.{rng.randrange(30)}.{n % 7}",
        port=rng.choice([8080, 8443, 9000, 3000]),
        level=rng.choice(["debug", "info", "warn"]),
        timeout=rng.randrange(5, 60), ratio=rng.choice(["0.5", "1.25", "2e3", ".5", "1_000"]),
        cpu=rng.randrange(100, 2000), memory=rng.randrange(64, 4096),
        enabled=rng.choice(["true", "false", "on"]),
        created=f"2025-0{rng.randrange(1, 10)}-1{rng.randrange(10)}")


def manifests_file(megabytes: int) -> Path:
    return written_once(DATA / f"manifests-{megabytes}mb.yaml", megabytes, 29, _manifest)


if __name__ == "__main__":
    kind, mb = sys.argv[1], int(sys.argv[2])
    print(events_file(mb) if kind == "events" else manifests_file(mb))
