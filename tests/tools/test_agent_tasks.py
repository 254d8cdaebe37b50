"""Agent tasks on the real-world corpus, driven as an LLM agent would drive them: the
official SDK's client in a stdio session against ``jqmagic mcp``. Each answer is checked
against the bound (the characters the agent receives) and its tool's outputSchema; every
step an answer suggests (next_arguments, next_call, next_start_index, next_offset, the
payload) is followed and checked to give the next part; each task's finding is checked
against plain Python on the same file, and the characters spent against reading the files
whole (the table is printed: run with ``-s`` to see it)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
import yaml
from mcp import Client  # the mcp extra (part of the test extra)
from mcp.client.stdio import StdioServerParameters

from jqmagic.tools.transport import limit
from tests.shared import CORPUS_JSON, SHARED
from tests.web_servers import WebServer

BOUND = limit()  # characters of one answer, at most
GITHUB = "openapi/github-api.github.com-2020-07.json"
KUBERNETES = "openapi/kubernetes-1.36-swagger.json"
LOCK = "npm/axios-package-lock.json"
ARGO = "k8s/argo-cd-install.yaml"
INGRESS = "k8s/ingress-nginx-cloud-deploy.yaml"
COMPOSE = "compose/opentelemetry-demo-compose.yaml"
WORLD = "geojson/world-countries.geo.json"
GSM8K = "jsonl/gsm8k-test.jsonl"
FILES = [GITHUB, KUBERNETES, LOCK, ARGO, INGRESS, COMPOSE, WORLD, GSM8K]

pytestmark = pytest.mark.skipif(
    not all((CORPUS_JSON / f).is_file() for f in FILES),
    reason=f"the real-world corpus is not at {CORPUS_JSON} (../shared beside the project)")


@dataclass
class Agent:
    """One task's calls through the session: what each cost, every answer within the bound."""

    client: Any
    schemas: dict[str, Any]
    calls: int = 0
    spent: int = 0  # characters of the answers, as the agent receives them
    files: set[str] = field(default_factory=set)
    largest: int = 0
    followed: Counter = field(default_factory=Counter)  # suggested steps taken, by kind
    scratch: Path = Path()  # a folder the server may edit in
    web: Any = None  # a server on 127.0.0.1

    async def ask(self, tool: str, follow: bool = True, **arguments: Any) -> dict[str, Any]:
        for key in ("file_path", "filePath", "file"):
            if key in arguments:
                self.files.add(arguments[key])
                arguments[key] = str(CORPUS_JSON / arguments[key])
        result = await self.client.call_tool(tool, arguments)
        text = result.content[0].text
        assert len(text) <= BOUND, (tool, arguments, len(text))
        answer = json.loads(text)
        if "note" in answer:  # too big to send twice: the text is a summary of the answer
            assert all(result.structured_content[k] == v for k, v in answer.items()
                       if k != "note")
            answer = result.structured_content
        assert result.structured_content == answer and answer["success"], answer
        jsonschema.validate(answer, self.schemas[tool])
        self.calls += 1
        self.spent += len(text)
        self.largest = max(self.largest, len(text))
        if follow:
            await self.follow(tool, arguments, answer)
        return answer

    async def follow(self, tool: str, arguments: dict[str, Any], answer: dict) -> None:
        """Take every step ``answer`` suggests, once, and check it gives the next part."""
        if "next_arguments" in answer and answer.get("shown") == 0:  # into the first result
            nxt = await self.ask(tool, False, **{**arguments, **answer["next_arguments"]})
            assert nxt["count"] >= 1 and (nxt.get("shown") or nxt["output"])
            self.followed["next_arguments"] += 1
        elif "next_arguments" in answer and "shown" in answer:  # the program sliced
            nxt = await self.ask(tool, False, **{**arguments, **answer["next_arguments"]})
            (expected,) = await self.values("jq", payload=answer["payload_id"], slurp=True,
                                            compact=True, query=f".[{answer['shown']}]")
            assert json.loads(nxt["output"].split("\n")[0]) == expected
            self.followed["next_arguments"] += 1
        elif "next_arguments" in answer:  # a page by characters or lines: the next one
            nxt = await self.ask(tool, False, **{**arguments, **answer["next_arguments"]})
            assert nxt["content"] and nxt["content"] != answer["content"]
            self.followed["next_arguments"] += 1
        if "payload_id" in answer:  # the payload holds what was not sent
            several = "shown" in answer
            counted = await self.ask("jq", False, payload=answer["payload_id"], query="length",
                                     slurp=several)
            if several:
                assert json.loads(counted["output"]) == answer["count"]
            self.followed["payload"] += 1
        if "next_call" in answer:  # another tool lists what a capped answer left out
            nxt = await self.ask(answer["next_call"]["tool"], False,
                                 **answer["next_call"]["arguments"])
            assert nxt["count"] >= 1 and nxt["output"]
            self.followed["next_call"] += 1
        if answer.get("next_start_index") is not None:  # web_fetch, in characters
            nxt = await self.ask(tool, False, **{**arguments,
                                                 "start_index": answer["next_start_index"]})
            assert nxt["start_index"] == answer["next_start_index"] and nxt["content"]
            self.followed["next_start_index"] += 1
        if answer.get("truncated") and answer.get("next_offset") is not None:  # lines
            nxt = await self.ask(tool, False, **{**arguments, "offset": answer["next_offset"]})
            assert nxt["offset"] == answer["next_offset"]
            self.followed["next_offset"] += 1

    async def values(self, tool: str, **arguments: Any) -> list[Any]:
        """The results of a query tool, one JSON value a line."""
        answer = await self.ask(tool, False, **arguments)
        assert not answer.get("truncated"), answer.get("message")
        return [json.loads(line) for line in answer["output"].splitlines()]


def load(name: str) -> Any:
    path = CORPUS_JSON / name
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if name.endswith((".yaml", ".yml")):
        return [d for d in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader)
                if d is not None]
    return json.loads(path.read_text())


# ---------------------------------------------------------------- the tasks


async def github_overview(agent: Agent) -> None:
    """What is in the GitHub API description, and how many endpoints does it have?"""
    shape = await agent.ask("json_inspect", filePath=GITHUB, depth=1)
    (paths,) = await agent.values("query_json", file_path=GITHUB, jq_expression=".paths | length")
    doc = load(GITHUB)
    assert shape["keys"] == list(doc) and paths == len(doc["paths"])


async def github_deprecated(agent: Agent) -> None:
    """Which operations of the GitHub API are deprecated?"""
    (found,) = await agent.values(
        "query_json", file_path=GITHUB, jq_expression='[.paths | to_entries[] | .key as $p '
        '| .value | to_entries[] | select(.value.deprecated == true) | "\\(.key) \\($p)"]')
    doc = load(GITHUB)
    assert found == [f"{method} {path}" for path, item in doc["paths"].items()
                     for method, op in item.items()
                     if isinstance(op, dict) and op.get("deprecated") is True]


async def github_parameters(agent: Agent) -> None:
    """Which query parameters does GET /repos/{owner}/{repo}/issues take?"""
    names = await agent.values(
        "query_json", file_path=GITHUB, jq_expression='.paths["/repos/{owner}/{repo}/issues"]'
        '.get.parameters[] | select(.in == "query") | .name')
    doc = load(GITHUB)
    params = doc["paths"]["/repos/{owner}/{repo}/issues"]["get"]["parameters"]
    assert names == [p["name"] for p in params if p.get("in") == "query"]


async def kubernetes_deployment(agent: Agent) -> None:
    """What must a Deployment's spec have, and what are its fields? (the spec is 4 MB)"""
    shape = await agent.ask("json_inspect", filePath=KUBERNETES,
                            path="/definitions/io.k8s.api.apps.v1.DeploymentSpec", depth=1)
    (required,) = await agent.values(
        "query_json", file_path=KUBERNETES,
        jq_expression='.definitions["io.k8s.api.apps.v1.DeploymentSpec"].required')
    spec = load(KUBERNETES)["definitions"]["io.k8s.api.apps.v1.DeploymentSpec"]
    assert shape["keys"] == list(spec) and required == spec["required"]


async def kubernetes_too_big_then_payload(agent: Agent) -> None:
    """An over-bound question (every definition) is not sent; the payload answers the next."""
    answer = await agent.ask("query_json", file_path=KUBERNETES, jq_expression=".definitions")
    assert answer["truncated"] is True and "output" not in answer
    counted = await agent.ask("jq", payload=answer["payload_id"], query="keys | length")
    groups = await agent.ask("jq", payload=answer["payload_id"], compact=True, query=(
        '[keys[] | select(startswith("io.k8s.api.")) | split(".")[3]] | unique'))
    definitions = load(KUBERNETES)["definitions"]
    assert json.loads(counted["output"]) == len(definitions)
    assert json.loads(groups["output"]) == sorted({k.split(".")[3] for k in definitions
                                                  if k.startswith("io.k8s.api.")})


async def lock_file(agent: Agent) -> None:
    """Which follow-redirects does axios lock, and how many packages are dev-only?"""
    (version,) = await agent.values(
        "query_json", file_path=LOCK,
        jq_expression='.packages["node_modules/follow-redirects"].version')
    (dev,) = await agent.values(
        "query_json", file_path=LOCK, jq_expression="[.packages[] | select(.dev)] | length")
    packages = load(LOCK)["packages"]
    assert version == packages["node_modules/follow-redirects"]["version"]
    assert dev == sum(1 for p in packages.values() if p.get("dev"))


async def argo_kinds(agent: Agent) -> None:
    """What does the Argo CD install manifest create (58 YAML documents, 1.9 MB)?"""
    (kinds,) = await agent.values(
        "query_yaml", file_path=ARGO, slurp=True,
        yq_expression="map(select(. != null) | .kind) | group_by(.) | "
                      "map({(.[0]): length}) | add")
    assert kinds == dict(Counter(d["kind"] for d in load(ARGO)))


async def ingress_images(agent: Agent) -> None:
    """Which container images does the ingress-nginx deployment run?"""
    images = await agent.values(
        "query_yaml", file_path=INGRESS,
        yq_expression='select(.kind == "Deployment" or .kind == "Job") | '
                      ".spec.template.spec.containers[].image")
    assert images == [c["image"] for d in load(INGRESS) if d["kind"] in ("Deployment", "Job")
                      for c in d["spec"]["template"]["spec"]["containers"]]


async def compose_services(agent: Agent) -> None:
    """Which services of the OpenTelemetry demo publish ports, and which?"""
    (ports,) = await agent.values(
        "query_yaml", file_path=COMPOSE,
        yq_expression="[.services | to_entries[] | select(.value.ports) | "
                      "{(.key): .value.ports}] | add")
    (doc,) = load(COMPOSE)
    assert ports == {name: s["ports"] for name, s in doc["services"].items() if s.get("ports")}


async def geo_and_lines(agent: Agent) -> None:
    """Countries starting with B; how long gsm8k's questions are on average."""
    names = await agent.values("query_json", file_path=WORLD, jq_expression=(
        '.features[].properties.name | select(startswith("B"))'))
    (stats,) = await agent.values("query_json", file_path=GSM8K, slurp=True, jq_expression=(
        "{n: length, mean: (map(.question | length) | add / length | floor)}"))
    assert names == [f["properties"]["name"] for f in load(WORLD)["features"]
                     if f["properties"]["name"].startswith("B")]
    rows = load(GSM8K)
    assert stats == {"n": len(rows), "mean": sum(len(r["question"]) for r in rows) // len(rows)}


async def page_through_paths(agent: Agent) -> None:
    """Every endpoint path of the GitHub API, 100 at a time, each page naming the next."""
    answer = await agent.ask("query_json", file_path=GITHUB, jq_expression=".paths | keys[]")
    got = [json.loads(line) for line in answer["output"].splitlines()]
    while answer.get("next_arguments"):
        answer = await agent.ask("query_json", False, file_path=GITHUB,
                                 **answer["next_arguments"])
        got += [json.loads(line) for line in answer["output"].splitlines()]
    assert got == sorted(load(GITHUB)["paths"]) and len(got) == 403


async def capped_keys(agent: Agent) -> None:
    """The Kubernetes spec's definitions: more keys than one answer lists."""
    shape = await agent.ask("json_inspect", filePath=KUBERNETES, path="/definitions", depth=0)
    assert shape["keyCount"] == len(load(KUBERNETES)["definitions"]) > len(shape["keys"])


async def fix_a_value(agent: Agent) -> None:
    """Scale the ingress controller to 3 replicas, without losing the rest of its spec."""
    edited = agent.scratch / "ingress.yaml"
    edited.write_text((CORPUS_JSON / INGRESS).read_text())
    docs = load(INGRESS)
    index = next(i for i, d in enumerate(docs) if d["kind"] == "Deployment")
    refused = (await agent.client.call_tool("json_patch", {
        "filePath": str(edited), "operation": "set", "path": f"/{index}/spec",
        "value": '{"replicas": 3}'})).structured_content
    assert refused["error_code"] == "PATCH_CONFLICT" and "merge" in refused["hint"]
    done = await agent.ask("json_patch", filePath=str(edited), operation="merge",
                           path=f"/{index}/spec", value='{"replicas": 3}')
    assert [c["path"] for c in done["added"] + done["replaced"]] == [f"/{index}/spec/replicas"]
    after = [d for d in yaml.safe_load_all(edited.read_text()) if d is not None]
    assert after[index]["spec"] == {**docs[index]["spec"], "replicas": 3}


async def fetch_local_page(agent: Agent) -> None:
    """Read a long article from a local server, part by part, as the answers say."""
    html = (SHARED / "corpus" / "html" / "wikipedia" / "source.html").read_text()
    url = agent.web.add("/article", html)
    first = await agent.ask("web_fetch", url=url)
    got, answer = first["content"], first
    while answer.get("next_start_index") is not None:
        answer = await agent.ask("web_fetch", False, url=url, max_length=20_000,
                                 start_index=answer["next_start_index"])
        got += answer["content"]
    assert len(got) == first["total_chars"] > 20_000 and first["title"]


TASKS: list[Callable[[Agent], Awaitable[None]]] = [
    github_overview, github_deprecated, github_parameters, kubernetes_deployment,
    kubernetes_too_big_then_payload, lock_file, argo_kinds, ingress_images, compose_services,
    geo_and_lines, page_through_paths, capped_keys, fix_a_value, fetch_local_page]


def test_agent_tasks_through_mcp(tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "jqmagic", "mcp", "--allow-root", str(CORPUS_JSON), "--allow-root",
              str(scratch), "--allow-private-addresses"],
        env={"JQMAGIC_PAYLOAD_DIR": str(tmp_path / "payloads"),
             "NO_PROXY": "127.0.0.1,localhost"})
    done: list[Agent] = []
    web = WebServer().start()

    async def run_all() -> None:
        async with Client(server, read_timeout_seconds=120) as client:
            schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
            for task in TASKS:
                agent = Agent(client, schemas, scratch=scratch, web=web)
                await task(agent)
                done.append(agent)

    try:
        anyio.run(run_all)
    finally:
        web.stop()
    rows = [(task.__name__, agent.calls, agent.spent, agent.largest,
             sum((CORPUS_JSON / f).stat().st_size for f in agent.files))
            for task, agent in zip(TASKS, done, strict=True)]
    print(table(rows))
    followed = sum((agent.followed for agent in done), Counter())
    print(f"suggested steps followed and checked: {dict(followed)}")
    assert set(followed) >= {"next_arguments", "payload", "next_call", "next_start_index"}
    assert len(rows) == len(TASKS) and all(largest <= BOUND for _, _, _, largest, _ in rows)
    spent, whole = sum(r[2] for r in rows), sum(r[4] for r in rows)
    assert spent < whole / 20  # the point of the tools: a small part of reading it all


def table(rows: list[tuple[str, int, int, int, int]]) -> str:
    lines = ["| task | calls | characters received | largest answer | files read whole "
             "| share |", "|---|---:|---:|---:|---:|---:|"]
    for name, calls, spent, largest, whole in rows:
        share = f"{spent / whole:.3%}" if whole else "(a web page)"
        lines.append(f"| {name} | {calls} | {spent:,} | {largest:,} | {whole:,} | {share} |")
    spent, whole = sum(r[2] for r in rows), sum(r[4] for r in rows)
    lines.append(f"| **total** | {sum(r[1] for r in rows)} | {spent:,} | "
                 f"{max(r[3] for r in rows):,} | {whole:,} | {spent / whole:.3%} |")
    return "\n" + "\n".join(lines) + f"\n(bound: {BOUND:,} characters an answer)"


def test_the_table_adds_up():
    out = table([("a", 2, 100, 80, 10_000), ("b", 1, 50, 50, 5_000)])
    assert "| **total** | 3 | 150 | 80 | 15,000 | 1.000% |" in out
