"""A real IPython kernel (jupyter_client) over a long session: questions over a JSON Lines
file edited between them (each answer jq 1.8.2's over the file as it is now), pauses longer
than the timeout, timeouts, the kernel interrupted mid-query (the next question answers at
once), %inspect, Tab completion, a streamed big JSON file and answers over the notebook's
bound (100 results shown, the rest in a payload a later question reads) between them."""

from __future__ import annotations

import json
import queue
import random
import re
import subprocess
import time

import pytest

from tests.cli.dropin import ORACLE

pytestmark = [pytest.mark.slow,  # a kernel, two pauses: about 15 s
              pytest.mark.skipif(not ORACLE.exists(), reason="jq 1.8.2 is not built here")]

PROGRAMS = ["[inputs | .type] | unique", "[inputs | .actor.login] | unique | length",
            "[inputs | .n] | add", 'first(inputs | select(.type == "t3")) | .n',
            "reduce inputs as $x ({}; .[$x.type] += 1)", "[inputs | .actor.id // 0] | max",
            "[limit(3; inputs | .actor.login)]",
            "[inputs | select(.n % 7 == 0) | .actor.login] | length"]
BIG_SUM = sum(range(20_000))


def _events(path, seed: int) -> None:
    path.write_text("".join(json.dumps({
        "type": f"t{(i + seed) % 5}", "actor": {"login": f"u{(i * seed) % 70}",
                                                 "id": i % (seed + 3)}, "n": i + seed}) + "\n"
        for i in range(6_000 + seed)))


class Kernel:
    """A kernel and the outputs of each cell it runs."""

    def __init__(self, cwd) -> None:
        from jupyter_client.manager import start_new_kernel

        self.manager, self.client = start_new_kernel(
            kernel_name="python3", cwd=str(cwd),
            extra_arguments=["--HistoryManager.enabled=False"])

    def run(self, code: str, interrupt_after: float | None = None):
        """(its text, (ename, evalue) or None, seconds)."""
        msg_id = self.client.execute(code)
        out, error, began = [], None, time.monotonic()
        while True:
            if interrupt_after is not None and time.monotonic() - began > interrupt_after:
                self.manager.interrupt_kernel()
                interrupt_after = None
            try:
                msg = self.client.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                assert time.monotonic() - began < 120, code
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind in ("display_data", "execute_result"):
                out.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                error = (content["ename"], content["evalue"])
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out), error, time.monotonic() - began

    def last_line(self, code: str):
        out, error, _ = self.run(code)
        assert error is None, (code, error)
        return out.strip().splitlines()[-1]

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def test_a_long_kernel_session(tmp_path):
    path = tmp_path / "events.jsonl"
    _events(path, 1)
    (tmp_path / "big.json").write_text(json.dumps({"items": [{"v": i, "pad": "x" * 20}
                                                            for i in range(20_000)]}))
    kernel = Kernel(tmp_path)
    rng, seed, done = random.Random(5), 1, {"pause": 0, "timeout": 0, "interrupt": 0,
                                            "edit": 0, "inspect": 0, "tab": 0, "stream": 0,
                                            "big": 0}
    try:
        kernel.last_line("%load_ext jqmagic\n%config JqMagic.timeout = 1.0\nimport json\n1")
        plan = ["pause", "timeout", "interrupt", "pause", "interrupt"] + rng.choices(
            ["ask"] * 12 + ["edit"] * 3 + ["timeout", "interrupt", "inspect", "tab",
                                           "stream", "big"], k=90)
        for step in plan:
            if step == "pause":
                time.sleep(1.3)  # longer than the timeout
            elif step == "timeout":
                _, error, _ = kernel.run("%jq -n 'def f: f; f'")
                assert error and "TIMEOUT" in error[1], error
            elif step == "interrupt":
                _, error, _ = kernel.run("%jq -n --timeout 60 'def f: f; f'",
                                         interrupt_after=0.4)
                assert error and ("INTERRUPTED" in error[1] or
                                  error[0] == "KeyboardInterrupt"), error
                began = time.monotonic()
                assert kernel.last_line("%jq -o two -n '1 + 1'\nprint(two)") == "2"
                assert time.monotonic() - began < 10
            elif step == "edit":
                seed += 1
                _events(path, seed)
            elif step == "inspect":
                out, error, _ = kernel.run(f"%inspect {path.name} --stats")
                assert error is None and "login" in out, (error, out[:300])
            elif step == "tab":
                code = f"%jq -n '[inputs | .actor.l' {path.name}"
                reply = kernel.client.complete(code, code.index(".l'") + 2, reply=True,
                                               timeout=60)
                assert reply["content"]["matches"] == [".login"], reply["content"]
            elif step == "stream":
                assert kernel.last_line("%jq -o got --stream-eval '[.items[] | .v] | add' "
                                        "big.json\nprint(got)") == str(BIG_SUM)
            elif step == "big":
                out, error, _ = kernel.run(f"%jq -n 'inputs | .n' {path.name}")
                assert error is None and out.count("\n") == 100, out[-300:]
                assert f"Showing 100 of {6_000 + seed:,} results" in out, out[-300:]
                kept = re.search(r"payload ([0-9a-f]{32})", out).group(1)
                assert kernel.last_line(f"%jq -s -o n 'length' --payload {kept}\n"
                                        "print(n)") == str(6_000 + seed)
            if step != "ask":
                done[step] += 1
                if step != "edit":
                    continue
            program = rng.choice(PROGRAMS)
            got = kernel.last_line(f"%jq -n -o got '{program}' {path.name}\n"
                                   "print(json.dumps(got))")
            jq = subprocess.run([str(ORACLE), "-c", "-n", program, str(path)],
                                capture_output=True, text=True, check=True)
            assert json.loads(got) == json.loads(jq.stdout), (program, seed)
    finally:
        kernel.close()
    assert all(done.values()), done
