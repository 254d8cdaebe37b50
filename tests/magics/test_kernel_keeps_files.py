"""A kernel driven as JupyterLab drives it keeps the file it parsed: the second and third
``%jq`` on a big file answer from the worker that parsed it (issue 56: each call took
1.7-3.5 s in JupyterLab, the completion's shape made after a cell having taken the first
worker, so the next question went to a spare that parsed the file again)."""

from __future__ import annotations

import json
import time
import uuid

import pytest

from jqmagic import samples

pytestmark = pytest.mark.slow  # a kernel and a 20 MB parse


def _lab_execute(client, code: str, timeout: float = 300) -> tuple[float, dict]:
    """Run ``code`` with the execute_request JupyterLab 4 sends (its content and cell
    metadata), waiting for the reply and the kernel's idle status; the seconds it took and
    the reply's content."""
    content = {"code": code, "silent": False, "store_history": True,
               "user_expressions": {}, "allow_stdin": True, "stop_on_error": True}
    metadata = {"deletedCells": [], "recordTiming": False, "cellId": str(uuid.uuid4())}
    message = client.session.msg("execute_request", content, metadata=metadata)
    began = time.perf_counter()
    client.shell_channel.send(message)
    reply = None
    idle = False
    deadline = time.monotonic() + timeout
    while reply is None or not idle:
        if reply is None:
            shell = client.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
            if shell["parent_header"].get("msg_id") == message["header"]["msg_id"]:
                reply = shell["content"]
        while not idle:
            try:
                io = client.get_iopub_msg(timeout=0.05)
            except Exception:  # queue.Empty: nothing yet
                break
            idle = (io["parent_header"].get("msg_id") == message["header"]["msg_id"]
                    and io["msg_type"] == "status"
                    and io["content"]["execution_state"] == "idle")
    return time.perf_counter() - began, reply


def _lab_comm_traffic(client) -> None:
    """What JupyterLab's widget manager sends between cells: the open comms asked for, the
    widget control comm opened and its states requested."""
    client.shell_channel.send(client.session.msg(
        "comm_info_request", {"target_name": "jupyter.widget"}))
    comm_id = str(uuid.uuid4())
    client.shell_channel.send(client.session.msg(
        "comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control",
                      "data": {}}))
    client.shell_channel.send(client.session.msg(
        "comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}))


def test_three_questions_of_a_big_file_parse_it_once(tmp_path):
    from jupyter_client.manager import start_new_kernel

    path = tmp_path / "shop-export.json"
    document = {"export": {"id": "exp-2026-12", "shop": "Example", "format": 2},
                "customers": samples.customers(80_000)}
    path.write_text(json.dumps(document))
    assert path.stat().st_size > 19e6
    manager, client = start_new_kernel(kernel_name="python3", extra_arguments=[
        "--HistoryManager.enabled=False"], cwd=str(tmp_path))
    try:
        took, reply = _lab_execute(client, "%load_ext jqmagic")
        assert reply["status"] == "ok"
        times = []
        for _ in range(3):
            took, reply = _lab_execute(client, "%jq '.export' shop-export.json")
            assert reply["status"] == "ok", reply
            times.append(took)
            _lab_comm_traffic(client)
        first, second, third = times
        # a parse of 20 MB takes seconds on busy cores; an answer from the kept tree a few
        # milliseconds plus the messages' round trip
        assert max(second, third) * 5 < first, times
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
