"""Score suggest() on an independently written task set.

Usage:
    python bench/suggest_independent.py tests/core/suggest_independent_a.json [--check] [--timeout 5]

Each task in the set file is {"task", "examples": [[in, out], [in, out]],
"holdout": [in, out], "reference"}.  The tasks were written by an author who
did not read the suggest() code, its tests or its notes.

A task counts as right when suggest()'s FIRST program
  * run with the real jq binary on the holdout input gives exactly one
    output, equal to the holdout output, and
  * does not embed an output constant: no number or string literal in the
    program equals a scalar found in an example output unless that scalar
    also occurs in the example inputs (as a value, a key, or inside an input
    string), and
  * suggest() returned within the time limit (timeout + 0.5 s grace for the
    call's own start-up and rendering).

--check only verifies the reference programs (on every example and the
holdout, and against the embed rule) and exits non-zero on any failure.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
JQ = os.path.join(ROOT, ".venv", "bin", "jq-1.8.2")
GRACE = 0.5


def run_jq(program, value, timeout=10):
    """Run program on value with the jq binary; return (outputs, error)."""
    try:
        p = subprocess.run([JQ, "-c", program], input=json.dumps(value),
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "jq timed out"
    if p.returncode != 0:
        return None, (p.stderr.strip() or "exit %d" % p.returncode)[:200]
    outs = []
    dec = json.JSONDecoder()
    text = p.stdout.strip()
    i = 0
    while i < len(text):
        v, j = dec.raw_decode(text, i)
        outs.append(v)
        i = j
        while i < len(text) and text[i].isspace():
            i += 1
    return outs, None


def same(a, b):
    """JSON equality that keeps true apart from 1 and compares numbers by value."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def scalars(v, keys=True):
    """Numbers and strings occurring in v (object keys too when keys)."""
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if keys:
                out.append(k)
            out.extend(scalars(x, keys))
    elif isinstance(v, list):
        for x in v:
            out.extend(scalars(x, keys))
    elif isinstance(v, (int, float, str)) and not isinstance(v, bool):
        out.append(v)
    return out


_STR = re.compile(r'"((?:[^"\\]|\\.)*)"')
_NUM = re.compile(r'(?<![\w$.])(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w])')


def literals(program):
    """String pieces (between interpolations) and numbers written in program."""
    lits = []
    rest = []
    pos = 0
    for m in _STR.finditer(program):
        rest.append(program[pos:m.start()])
        pos = m.end()
        body = m.group(1)
        # split off \( ... ) interpolations (not nested-aware beyond one level)
        for piece in re.split(r'\\\((?:[^()]|\([^()]*\))*\)', body):
            if piece:
                try:
                    lits.append(json.loads('"%s"' % piece))
                except ValueError:
                    lits.append(piece)
    rest.append(program[pos:])
    code = " ".join(rest)
    for m in _NUM.finditer(code):
        lits.append(float(m.group(1)))
    return lits


def embedded_output_constants(program, examples):
    """Literals of program that are output scalars absent from the inputs."""
    in_vals = []
    in_strings = []
    for i, _ in examples:
        for s in scalars(i):
            in_vals.append(s)
            if isinstance(s, str):
                in_strings.append(s)
    out_vals = [s for _, o in examples for s in scalars(o, keys=False)]
    found = []
    for lit in literals(program):
        if isinstance(lit, float):
            hit = any(not isinstance(o, str) and same(lit, o) for o in out_vals)
            known = any(not isinstance(v, str) and same(lit, v) for v in in_vals) or \
                any(isinstance(v, str) and v == m for v in in_vals
                    for m in (repr(lit), str(int(lit)) if lit == int(lit) else repr(lit)))
        else:
            hit = any(isinstance(o, str) and o == lit for o in out_vals)
            known = lit in in_vals or any(lit in s for s in in_strings)
        if hit and not known:
            found.append(lit)
    return found


def check_references(tasks, out=sys.stdout):
    bad = 0
    for n, t in enumerate(tasks, 1):
        pairs = [tuple(e) for e in t["examples"]] + [tuple(t["holdout"])]
        for k, (i, o) in enumerate(pairs):
            outs, err = run_jq(t["reference"], i)
            if err or len(outs) != 1 or not same(outs[0], o):
                bad += 1
                print("task %d pair %d: reference %r gave %r %s" % (n, k, t["reference"], outs, err or ""), file=out)
        emb = embedded_output_constants(t["reference"], t["examples"])
        if emb:
            bad += 1
            print("task %d: reference embeds output constants %r" % (n, emb), file=out)
        if len(t["examples"]) != 2:
            bad += 1
            print("task %d: %d examples, want 2" % (n, len(t["examples"])), file=out)
    print("%d tasks, %d problems" % (len(tasks), bad), file=out)
    return bad


def md(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def score(tasks, timeout):
    from jqmagic.core.suggest import suggest

    rows = []
    right = 0
    for n, t in enumerate(tasks, 1):
        examples = [tuple(e) for e in t["examples"]]
        hin, hout = t["holdout"]
        t0 = time.perf_counter()
        first = None
        err = None
        try:
            s = suggest(examples=examples, timeout=timeout)
            progs = getattr(s, "programs", None) or []
            if progs:
                first = progs[0]["program"]
        except Exception as e:  # a crash is a miss, not the end of the run
            err = "%s: %s" % (type(e).__name__, e)
        secs = time.perf_counter() - t0
        verdict = "wrong"
        note = ""
        if first is None:
            verdict = "none"
            note = err or "no program"
        else:
            outs, jerr = run_jq(first, hin)
            emb = embedded_output_constants(first, examples)
            holdout_ok = not jerr and len(outs) == 1 and same(outs[0], hout)
            if not holdout_ok:
                note = "holdout: %s" % (jerr or json.dumps(outs)[:80])
            if emb:
                note = ("%s; " % note if note else "") + "embeds %s" % ", ".join(json.dumps(x) for x in emb)
            if not holdout_ok:
                verdict = "wrong"
            elif emb:
                verdict = "embeds"
            elif secs > timeout + GRACE:
                verdict = "slow"
            else:
                verdict = "right"
        if verdict == "right":
            right += 1
        rows.append((n, t["task"], first, verdict, secs, note, t["reference"]))
        print("%2d %-6s %5.2fs %s" % (n, verdict, secs, first), file=sys.stderr, flush=True)
    return rows, right


def table(name, rows, right):
    lines = ["### %s" % name, "",
             "| # | task | first answer | verdict | s | note | reference |",
             "|---|------|--------------|---------|---|------|-----------|"]
    for n, task, first, verdict, secs, note, ref in rows:
        lines.append("| %d | %s | `%s` | %s | %.2f | %s | `%s` |" % (
            n, md(task), md(first if first is not None else "-"), verdict, secs, md(note), md(ref)))
    total = sum(r[4] for r in rows)
    lines += ["", "**Total: %d / %d right as the first answer** (max %.2f s, sum %.1f s)" % (
        right, len(rows), max(r[4] for r in rows), total), ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("set_file")
    ap.add_argument("--check", action="store_true", help="only verify the reference programs")
    ap.add_argument("--timeout", type=float, default=5)
    a = ap.parse_args()
    tasks = json.load(open(a.set_file))
    if a.check:
        sys.exit(1 if check_references(tasks) else 0)
    if check_references(tasks, out=sys.stderr):
        sys.exit("the set's references do not verify")
    rows, right = score(tasks, a.timeout)
    print(table(os.path.basename(a.set_file), rows, right))


if __name__ == "__main__":
    main()
