"""The engine's searches run in worker processes, so that thinking never blocks the bot.

The interface is the issue's contract (§3): `run(owner, function, *args)` executes a
module-level function with plain arguments in a worker and returns its result; at most
`workers` run at once, and a call that would wait behind more than `queue_limit` others is
refused at once with `EngineBusyError`, so the caller can say "later".

The simplest body that keeps that interface (the `botplay` branch brings the full one, with
the workers from the server's setting and a queue that is fair between owners): a process
pool made on first use, and a semaphore.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")

#: calls that may wait for a worker, besides those running
QUEUE_LIMIT = 16


class EngineBusyError(Exception):
    """Every worker is busy and the queue is full: the caller tells the user to try later."""


class EnginePool:
    """Worker processes for the engine; made on first use, ended by `close`."""

    def __init__(self, workers: int | None = None, queue_limit: int = QUEUE_LIMIT) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.queue_limit = queue_limit
        self._executor: ProcessPoolExecutor | None = None
        self._slots = asyncio.Semaphore(self.workers)
        self._calls = 0

    async def run(self, owner: str, function: Callable[..., T], *args: object) -> T:
        """`function(*args)` in a worker process; EngineBusyError at once when too many
        calls wait already. (`owner` names whom the call is for, for fairness.)"""
        if self._calls >= self.workers + self.queue_limit:
            raise EngineBusyError(owner)
        self._calls += 1
        try:
            async with self._slots:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._pool(), function, *args)
        finally:
            self._calls -= 1

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawned, not forked: a fork would copy the bot's threads' locks mid-use
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def close(self) -> None:
        """End the workers; calls still waiting are cancelled."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
