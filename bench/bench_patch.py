"""Benchmark changing one value in a big file: jqmagic patch and -i vs jq, yq and load + dump.

The data is generated deterministically under bench/data/ (gitignored): a JSON file
``{"meta": ..., "users": [...]}`` written with a 2-space indent, non-ASCII names and money
amounts written with two decimals (``12.50``), as a hand-kept or exported file would have
them; and the same users as a YAML file with comments. Each run works on a fresh copy, in
its own process, timed by GNU ``/usr/bin/time -v`` (wall time, peak RSS). Afterwards the
output is compared with the input, to show how many lines each way rewrote.

    .venv/bin/python bench/bench_patch.py     # 100 MB JSON, 10 MB YAML; RESULTS-patch.md
    .venv/bin/python bench/bench_patch.py --megabytes 10 --yaml-megabytes 1  # quick
    .venv/bin/python bench/bench_patch.py --only-many   # many edits in one file (12.5 MB)

The last: ``query -i`` with programs that change every item, remove 100 and shift all of a
100,000-item array (each a diff of many steps, made as one batch: core/patch/batch.py),
against jq 1.8.2 writing the whole file and Python's json load + edit + dump; then every
user's status set and half the users removed in the 4 MB YAML file, against yq and PyYAML;
its section of RESULTS-patch.md is replaced, the rest kept.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
RESULTS = HERE / "RESULTS-patch.md"
CITIES = ["Zürich", "São Paulo", "Kraków", "Lyon", "Osaka", "Reykjavík"]


def _write_users(path: Path, megabytes: int, head: str, user, tail: str = "") -> int:
    """Write ``head``, then ``user(count, rng)``'s text for one user after another until
    the file holds ``megabytes``, then ``tail`` (through a temporary file); return how many
    users it holds."""
    rng = random.Random(megabytes)
    tmp = path.with_suffix(".tmp")
    count, size = 0, 0
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(head)
        while size < megabytes * 2**20:
            text = user(count, rng)
            out.write(text)
            size += len(text.encode())
            count += 1
        out.write(tail)
    os.replace(tmp, path)
    return count


def _json_user(count: int, rng: random.Random) -> str:
    user = {"id": f"user-{count:07d}", "name": f"User {count}",
            "email": f"user{count}@example.org", "status": "new",
            "amount": "AMOUNT", "tags": rng.sample(["a", "b", "c", "d"], 2),
            "address": {"city": rng.choice(CITIES), "zip": f"{rng.randint(0, 99999):05}"}}
    text = json.dumps(user, indent=2, ensure_ascii=False).replace(
        '"AMOUNT"', f"{rng.randint(100, 99999) / 100:.2f}")
    return ("" if count == 0 else ",\n") + "    " + text.replace("\n", "\n    ")


def generate(path: Path, megabytes: int) -> int:
    """Write the users file; return how many users it holds."""
    return _write_users(path, megabytes, '{\n  "meta": {\n    "version": 3,\n    "exported": '
                        '"2026-11-22"\n  },\n  "users": [\n', _json_user, "\n  ]\n}\n")


def _made_once(path: Path, counted: str, make, megabytes: int) -> tuple[Path, int]:
    """``path`` and its users' count, made by ``make`` the first time (the count kept
    beside it, with the suffix ``counted``)."""
    meta = path.with_suffix(counted)
    if not path.exists() or not meta.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        print(f"generating {path} ...", file=sys.stderr)
        meta.write_text(str(make(path, megabytes)))
    return path, int(meta.read_text())


def data_file(megabytes: int) -> tuple[Path, int]:
    return _made_once(DATA / f"patch-{megabytes}mb.json", ".count", generate, megabytes)


def _yaml_user(count: int, rng: random.Random) -> str:
    return (f"  # --- batch {count // 100} ---\n" if count % 100 == 0 else "") + (
        f"  - id: user-{count:07d}\n    name: User {count}\n"
        f"    email: user{count}@example.org\n    status: new\n"
        f"    amount: {rng.randint(100, 99999) / 100:.2f}\n"
        f"    tags: [{', '.join(rng.sample(['a', 'b', 'c', 'd'], 2))}]\n"
        f"    address:\n      city: {rng.choice(CITIES)}\n"
        f"      zip: \"{rng.randint(0, 99999):05}\"\n")


def generate_yaml(path: Path, megabytes: int) -> int:
    """Write the users as a hand-kept YAML file (comments, quoted zips, flow tags)."""
    return _write_users(path, megabytes, "# users, kept by hand: keep the comments\nmeta:\n"
                        "  version: 3   # bumped by hand\n  exported: \"2026-11-22\"\n"
                        "users:\n", _yaml_user)


def yaml_file(megabytes: int) -> tuple[Path, int]:
    return _made_once(DATA / f"patch-{megabytes}mb.yaml", ".ycount", generate_yaml, megabytes)


def python(code: str) -> list[str]:
    """A command running ``code`` with the file path as sys.argv[1]."""
    return [sys.executable, "-c", code]


def yaml_runs(index: int) -> list[tuple[str, list[str]]]:
    """(name, command taking the file path last) for the YAML file."""
    ours = "import sys; from jqmagic.core.patch import patch; "
    program = f'.users[{index}].status = "active"'
    return [
        ("jqmagic query -i", python(ours + f"patch(sys.argv[1], jq={program!r})")),
        ("jqmagic patch set, by pointer",
         python(ours + f"patch(sys.argv[1], 'set', '/users/{index}/status', 'active')")),
        ("yq -y -i (Debian's yq: jq + PyYAML)", ["yq", "-y", "-i", program]),
        ("yaml.load + set + yaml.dump (PyYAML, C)",
         python("import sys, yaml\n"
                "with open(sys.argv[1], encoding='utf-8') as f: doc = yaml.load(f, "
                "Loader=yaml.CSafeLoader)\n"
                f"doc['users'][{index}]['status'] = 'active'\n"
                "with open(sys.argv[1], 'w', encoding='utf-8') as f:\n"
                "    yaml.dump(doc, f, Dumper=yaml.CSafeDumper, sort_keys=False, "
                "allow_unicode=True)")),
    ]


def runs(index: int) -> list[tuple[str, str]]:
    """(name, Python code run with the file path as sys.argv[1])."""
    ours = "import sys; from jqmagic.core.patch import patch; "
    return [
        ("jqmagic patch set, by pointer",
         ours + f"patch(sys.argv[1], 'set', '/users/{index}/status', 'active')"),
        ("jqmagic patch set, by match (--where id)",
         ours + f"patch(sys.argv[1], 'set', '/status', 'active', match='/users', "
                f"where={{'id': 'user-{index:07d}'}})"),
        ("jqmagic patch set, by pointer, --dry-run",
         ours + f"patch(sys.argv[1], 'set', '/users/{index}/status', 'active', dry_run=True)"),
        ("jqmagic query -i",
         ours + f"patch(sys.argv[1], jq='.users[{index}].status = \"active\"')"),
        ("json.load + set + json.dump(indent=2)",
         "import json, sys\n"
         "with open(sys.argv[1], encoding='utf-8') as f: doc = json.load(f)\n"
         f"doc['users'][{index}]['status'] = 'active'\n"
         "with open(sys.argv[1], 'w', encoding='utf-8') as f:\n"
         "    json.dump(doc, f, indent=2, ensure_ascii=False); f.write('\\n')"),
    ]


def json_runs(index: int) -> list[tuple[str, list[str]]]:
    """(name, command taking the file path last) for the JSON file; json load+dump last."""
    jq_cli = (f"jq '.users[{index}].status = \"active\"' \"$1\" > \"$1.jq\" && "
              "mv \"$1.jq\" \"$1\"")
    rows = [(name, python(code)) for name, code in runs(index)]
    rows.insert(-1, (f"jq {_jq_version()} CLI + write-back (temp file, mv: as sponge)",
                     ["sh", "-c", jq_cli, "sh"]))
    return rows


def _jq_version() -> str:
    try:
        return subprocess.run(["jq", "--version"], capture_output=True, text=True,
                              check=True).stdout.strip().removeprefix("jq-")
    except (OSError, subprocess.CalledProcessError):
        return "(missing)"


def measure(command: list[str], path: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one command, by GNU time -v."""
    run = subprocess.run(["/usr/bin/time", "-v", *command, str(path)], capture_output=True,
                         text=True)
    if run.returncode:
        raise RuntimeError(f"{shlex.join(command)[:200]}: {run.stderr[-800:]}")
    wall = re.search(r"Elapsed \(wall clock\) time .*: (?:(\d+):)?(\d+):([\d.]+)", run.stderr)
    hours, minutes, seconds = (float(part or 0) for part in wall.groups())
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr).group(1))
    return hours * 3600 + minutes * 60 + seconds, rss / 1024


def changed_lines(before: Path, after: Path) -> int:
    """How many lines of the input are not in the output (as a multiset of lines)."""
    with open(before, "rb") as old, open(after, "rb") as new:
        return sum((collections.Counter(old) - collections.Counter(new)).values())


def run(source: Path, commands: list[tuple[str, list[str]]]) -> list[dict]:
    """Each command on a fresh copy of ``source``; the last one is the baseline."""
    work = source.with_name("patch-work" + source.suffix)
    rows = []
    for name, command in commands:
        shutil.copyfile(source, work)
        try:
            elapsed, rss = measure(command, work)
        except (OSError, RuntimeError) as exc:
            print(f"{name}: failed: {exc}", file=sys.stderr)
            rows.append({"tool": name, "failed": str(exc).splitlines()[-1][:120]})
            continue
        rows.append({"tool": name, "time": elapsed, "rss": rss,
                     "changed": changed_lines(source, work)})
        print(f"{name:50s} {elapsed:7.2f} s {rss:7.0f} MB {rows[-1]['changed']:9d} lines",
              file=sys.stderr)
    work.unlink(missing_ok=True)
    base = rows[-1].get("time")
    for row in rows:
        if "time" in row and base:
            row["ratio"] = row["time"] / base
    return rows


def table(rows: list[dict], size: float, baseline: str) -> str:
    lines = [f"| input | way | time (s) | peak RSS (MB) | lines rewritten | time / {baseline} |",
             "|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        if "failed" in r:
            lines.append(f"| {size:.3g} MB | {r['tool']} | failed: {r['failed']} | | | |")
            continue
        lines.append(f"| {size:.3g} MB | {r['tool']} | {r['time']:.2f} | {r['rss']:.0f} | "
                     f"{r['changed']:,} | {r['ratio']:.2f}x |")
    return "\n".join(lines)


JQ = HERE.parent / ".venv" / "bin" / "jq-1.8.2"
MANY = "## Many edits in one file"
# (what it does, the jq program, the same edit in Python on doc["items"])
PROGRAMS = [
    ("every item changed", ".items |= map(.v += 1)",
     "for x in items: x['v'] += 1"),
    ("100 items removed", ".items |= map(select(.id % 1000 != 7))",
     "items[:] = [x for x in items if x['id'] % 1000 != 7]"),
    ("every item shifted by one", ".items |= .[1:] + [.[0]]",
     "items[:] = items[1:] + items[:1]"),
]
# the same on the YAML users file (comments, flow tags; the edit in Python on doc["users"])
YAML_PROGRAMS = [
    ("every user's status set", '.users |= map(.status = "active")',
     "for x in users: x['status'] = 'active'"),
    ("half the users removed", ".users |= map(select(.amount > 500))",
     "users[:] = [x for x in users if x['amount'] > 500]"),
]
YAML_MEGABYTES = 4


def generate_items(path: Path, count: int) -> int:
    """``{"meta": ..., "items": [...]}`` of ``count`` small objects, 2-space indent."""
    rng = random.Random(7)
    items = [{"id": n, "v": rng.randint(0, 999), "name": f"item-{n:06d}",
              "tags": rng.sample(["a", "b", "c", "d"], 2)} for n in range(count)]
    path.write_text(json.dumps({"meta": {"version": 3}, "items": items}, indent=2) + "\n")
    return count


def many_runs(program: str, python_edit: str) -> list[tuple[str, list[str]]]:
    """(name, command taking the file path last) for one program; json load+dump last."""
    ours = "import sys; from jqmagic.core.patch import patch; "
    jq_cli = (f"{shlex.quote(str(JQ))} {shlex.quote(program)} \"$1\" > \"$1.jq\" && "
              "mv \"$1.jq\" \"$1\"")
    return [
        ("jqmagic query -i (bytes kept)", python(ours + f"patch(sys.argv[1], jq={program!r})")),
        ("jq 1.8.2 + write-back (the whole file rewritten)", ["sh", "-c", jq_cli, "sh"]),
        ("json.load + edit + json.dump(indent=2)",
         python("import json, sys\n"
                "with open(sys.argv[1]) as f: doc = json.load(f)\n"
                f"items = doc.get('items')\n{python_edit}\n"
                "with open(sys.argv[1], 'w') as f: json.dump(doc, f, indent=2); f.write('\\n')")),
    ]


def many_yaml_runs(program: str, python_edit: str) -> list[tuple[str, list[str]]]:
    """(name, command taking the file path last) for one program on the YAML file."""
    ours = "import sys; from jqmagic.core.patch import patch; "
    return [
        ("jqmagic query -i (bytes kept)", python(ours + f"patch(sys.argv[1], jq={program!r})")),
        ("yq -y -i (Debian's yq: jq + PyYAML; comments lost)", ["yq", "-y", "-i", program]),
        ("yaml.load + edit + yaml.dump (PyYAML, C)",
         python("import sys, yaml\n"
                "with open(sys.argv[1], encoding='utf-8') as f: doc = yaml.load(f, "
                "Loader=yaml.CSafeLoader)\n"
                f"users = doc['users']\n{python_edit}\n"
                "with open(sys.argv[1], 'w', encoding='utf-8') as f:\n"
                "    yaml.dump(doc, f, Dumper=yaml.CSafeDumper, sort_keys=False, "
                "allow_unicode=True)")),
    ]


def same_as_jq(source: Path, program: str) -> bool:
    """Whether ``query -i``'s file reads as jq 1.8.2's output for ``program`` (a YAML
    file: on its value as JSON)."""
    import yaml

    work = source.with_name("patch-check" + source.suffix)
    shutil.copyfile(source, work)
    subprocess.run(python("import sys; from jqmagic.core.patch import patch; "
                          f"patch(sys.argv[1], jq={program!r})") + [str(work)], check=True)
    read = json.loads if source.suffix == ".json" else lambda text: yaml.load(
        text, Loader=yaml.CSafeLoader)
    value = json.dumps(read(source.read_text(encoding="utf-8")))
    want = subprocess.run([str(JQ), program], input=value.encode(), capture_output=True,
                          check=True)
    same = json.loads(want.stdout) == read(work.read_text(encoding="utf-8"))
    work.unlink()
    return same


def many(count: int) -> str:
    """The many-edits section: each program's table, jq 1.8.2 the baseline."""
    source = DATA / f"patch-items-{count}.json"
    if not source.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        generate_items(source, count)
    size = source.stat().st_size / 1e6
    load = os.getloadavg()
    parts = [f"{MANY}: a jq program changing a {count:,}-item array\n\n"
             f"`bench/bench_patch.py --only-many --items {count}`: `{{\"meta\": ..., \"items\": "
             f"[{{\"id\", \"v\", \"name\", \"tags\"}}, ...]}}`, 2-space indent, {size:.1f} MB; "
             f"load average {load[0]:.2f} at the start. jq 1.8.2 and json load + dump rewrite "
             "the whole file (every byte written by them: `lines rewritten` counts what they "
             "changed); `query -i` writes only the values that differ, every other byte kept, "
             "so its time buys that. Peak RSS: the largest single process (`query -i`'s own, "
             "or its query worker's).\n"]
    for what, program, edit in PROGRAMS:
        parts.append(_program(source, what, program, many_runs(program, edit), "jq 1.8.2"))
    parts.append(_lock_file())
    ysource, ycount = yaml_file(YAML_MEGABYTES)
    parts.append(f"### YAML: {ycount:,} users, {ysource.stat().st_size / 1e6:.1f} MB\n\n"
                 "The users file of the YAML section above (comments, quoted zips, flow "
                 "tags); yq (Debian's: jq + PyYAML) and PyYAML load + dump rewrite it, "
                 "losing every comment; `query -i` splices each value or item (a batch: "
                 "yamltext.py's batching) and reads the text back before writing.")
    for what, program, edit in YAML_PROGRAMS:
        parts.append(_program(ysource, f"YAML, {what}", program,
                              many_yaml_runs(program, edit), "yq"))
    return "\n\n".join(parts) + "\n"


LOCK = HERE.parent.parent / "shared" / "corpus" / "json" / "npm" / "axios-package-lock.json"


def _lock_file() -> str:
    """A real lock file (../shared/corpus's axios package-lock.json, 1.7 MB): every
    package's ``dev`` set, a key most of them lack (2,116 changes, most of them keys added)."""
    if not LOCK.exists():
        return f"### lock file: skipped ({LOCK} is absent)"
    source = DATA / LOCK.name  # a copy: run() writes its work file beside the source
    shutil.copyfile(LOCK, source)
    return _program(source, "a lock file (../shared/corpus, axios), every package's dev set",
                    ".packages[].dev = false", many_runs(
                        ".packages[].dev = false",
                        "for p in doc['packages'].values(): p['dev'] = False"), "jq 1.8.2")


def _program(source: Path, what: str, program: str, commands: list, baseline: str) -> str:
    """One program's table: the second way is the baseline."""
    rows = run(source, commands)
    base = rows[1].get("time")
    for row in rows:
        if "time" in row and base:
            row["ratio"] = row["time"] / base
    same = "equals" if same_as_jq(source, program) else "DIFFERS FROM"
    return (f"### {what}: `{program}`\n\nThe file `query -i` wrote {same} jq 1.8.2's "
            "output.\n\n" + table(rows, source.stat().st_size / 1e6, baseline))


def _with_section(text: str, section: str) -> str:
    """``text`` with its many-edits section (from its heading to the end) replaced."""
    at = text.find(MANY)
    return (text[:at] if at >= 0 else text.rstrip("\n") + "\n\n") + section


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=100)
    parser.add_argument("--yaml-megabytes", type=int, default=10)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--only-many", action="store_true")
    args = parser.parse_args()
    if args.only_many:
        section = many(args.items)
        print(section)
        RESULTS.write_text(_with_section(RESULTS.read_text() if RESULTS.exists() else "",
                                         section))
        return
    source, count = data_file(args.megabytes)
    json_rows = run(source, json_runs(count // 2))
    json_table = table(json_rows, source.stat().st_size / 2**20, "json")
    ysource, ycount = yaml_file(args.yaml_megabytes)
    yaml_table = table(run(ysource, yaml_runs(ycount // 2)), ysource.stat().st_size / 2**20,
                       "PyYAML")
    print(json_table + "\n\n" + yaml_table)
    RESULTS.write_text(
        "# Patch benchmark: change one value in a big file\n\n"
        f"`bench/bench_patch.py --megabytes {args.megabytes} --yaml-megabytes "
        f"{args.yaml_megabytes}` on {os.cpu_count()} shared cores, Python "
        f"{sys.version.split()[0]}, each way on a fresh copy in its own process, timed by "
        "GNU `/usr/bin/time -v` (wall time and peak RSS; interpreter start-up included; the "
        "peak RSS is the largest single process, so jqmagic's query worker, a separate "
        "process, is counted only if larger than its caller). *Lines rewritten* counts the "
        "input's lines missing from the output.\n\n"
        f"## JSON: {count:,} users, pretty-printed\n\n"
        "2-space indent, non-ASCII text, amounts such as `12.50`; each way sets "
        "`/users/N/status` of the middle user. json load+dump and jq lose every `12.50` -> "
        "`12.5`. jqmagic patch validates the whole file, skips to the value with the json "
        "module's C scanner and writes the original bytes around the one changed value to a "
        "temporary file that replaces the original; `query -i` runs the program on the "
        "whole document in the query worker, then writes only the difference the same "
        "way.\n\n" + json_table + "\n\n"
        f"## YAML: {ycount:,} users, block style with comments\n\n"
        "Quoted zips, flow-style tag lists, a comment every 100 users. yq (Debian's, the "
        "jq wrapper) and PyYAML load + dump drop every comment and requote; jqmagic composes "
        "the document (PyYAML's C parser), splices the one value, composes the edited text "
        "again and checks it reads back as the edited value before writing.\n\n"
        + yaml_table + "\n\n" + many(args.items))


if __name__ == "__main__":
    main()
