"""Answers of the busiest pages kept for a second, shared by everyone who asks meanwhile.

A page that many visitors load at once (the front page, a popular bot, the newest matches)
is built once per ``TTL_S`` however many ask: the first request builds it, the others that
arrive while it is being built wait for the same answer, and for the next second everyone
gets a copy. The cache holds at most ``CAPACITY`` answers (the oldest go first), so a visitor
walking through every page cannot make it grow without end.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

#: How long an answer is reused.
TTL_S = 1.0
#: Answers kept at most.
CAPACITY = 256

Handler = Callable[[Request], Awaitable[Response]]


@dataclass(frozen=True, slots=True)
class _Answer:
    status: int
    body: bytes
    media_type: str | None
    made_at: float


class ResponseCache:
    def __init__(self, ttl_s: float = TTL_S, capacity: int = CAPACITY) -> None:
        self.ttl_s = ttl_s
        self.capacity = capacity
        self._answers: OrderedDict[str, _Answer] = OrderedDict()
        self._building: dict[str, asyncio.Task[_Answer]] = {}

    def cached(self, handler: Handler) -> Handler:
        """``handler`` with its answers shared as described above (keyed by path and query)."""

        async def serve(request: Request) -> Response:
            key = f"{request.url.path}?{request.url.query}"
            answer = self._answers.get(key)
            if answer is None or time.monotonic() - answer.made_at >= self.ttl_s:
                task = self._building.get(key)
                if task is None:
                    task = asyncio.get_running_loop().create_task(self._build(handler, request))
                    self._building[key] = task
                    task.add_done_callback(functools.partial(self._done, key))
                answer = await asyncio.shield(task)
            return Response(answer.body, status_code=answer.status, media_type=answer.media_type)

        return serve

    def _done(self, key: str, task: asyncio.Task[_Answer]) -> None:
        self._building.pop(key, None)
        if not task.cancelled():
            task.exception()  # seen: every waiter re-raises it (an HTTP error), or none is left

    async def _build(self, handler: Handler, request: Request) -> _Answer:
        response = await handler(request)
        answer = _Answer(
            response.status_code,
            bytes(response.body),
            response.media_type,
            time.monotonic(),
        )
        if response.status_code < 500:
            key = f"{request.url.path}?{request.url.query}"
            self._answers[key] = answer
            self._answers.move_to_end(key)
            while len(self._answers) > self.capacity:
                self._answers.popitem(last=False)
        return answer
