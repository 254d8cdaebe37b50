"""One ``using`` object entered by several asyncio tasks or threads (a module's
``SAFE = using(sandbox=True)``): each block leaves its own settings when it ends. The
tokens were one stack for every context, so a block that ended out of order reset a token
another context made (ValueError: created in a different Context), and a pool thread kept
the block's settings for its later jobs."""

from __future__ import annotations

import asyncio
import threading

from jqmagic.core.settings import current, using


def test_tasks_leaving_a_shared_block_out_of_order():
    shared = using(max_results=7)

    async def inside(pause: float) -> int:
        with shared:
            await asyncio.sleep(pause)
            return current().max_results

    async def both() -> list:
        return await asyncio.gather(inside(0.01), inside(0.05))

    assert asyncio.run(both()) == [7, 7]
    assert current().max_results == 100


def test_threads_leaving_a_shared_block_out_of_order():
    shared, entered, after, order = using(max_results=7), threading.Barrier(3), [], []

    def inside(name: int, leave: threading.Event, next_one: threading.Event) -> None:
        with shared:
            entered.wait(10)
            leave.wait(10)
            order.append(name)
        after.append(current().max_results)
        next_one.set()

    first, second, done = threading.Event(), threading.Event(), threading.Event()
    threads = [threading.Thread(target=inside, args=(0, first, second), daemon=True),
               threading.Thread(target=inside, args=(1, second, done), daemon=True)]
    for thread in threads:
        thread.start()
    entered.wait(10)
    first.set()  # the first to enter leaves first
    for thread in threads:
        thread.join(10)
    assert order == [0, 1]
    assert after == [100, 100]


def test_a_shared_block_nested_in_one_task_still_unwinds():
    shared = using(timeout=3.0)
    with shared:
        with using(max_results=5):
            with shared:
                assert (current().timeout, current().max_results) == (3.0, 5)
            assert current().max_results == 5
        assert current().max_results == 100
        assert current().timeout == 3.0
    assert current().timeout == 30.0
