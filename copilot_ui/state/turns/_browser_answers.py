"""How a browser tool's script reaches the tab of the turn that made the call, and how its answer comes back.

The script is wrapped so that it always answers (its value, or the error it threw) under a one-time
key; the answer comes back through the tab's answer event, and counts only from the tab the script
was sent to. No answer within the timeout is an error result; a tab with no browser at all (the testing kit's)
says so at once (`without_browser`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import weakref
from typing import TYPE_CHECKING, Any

from ...errors import BrowserToolError, NoBrowser
from ..sink import script_event

if TYPE_CHECKING:
    from ._thread_runs import ThreadRun

_PENDING: dict[str, tuple[str, asyncio.Future[Any]]] = {}  # one-time key -> (tab token, its answer)


class ThreadRunPage:
    """The tab of a turn, as a browser tool reaches it (`declarations.current_page` while the turn runs). It holds the
    turn weakly: a timer the turn leaves behind keeps its context, and would keep the turn with it, until the timer is
    due (pydantic-ai's timeout of a model request: a minute by default)."""

    def __init__(self, thread_run: ThreadRun) -> None:
        self._thread_run = weakref.ref(thread_run)

    async def run_script(self, script: str, arguments: dict[str, Any], seconds: float) -> Any:
        thread_run = self._thread_run()
        if thread_run is None:
            raise BrowserToolError("the turn that called this tool is over")
        if thread_run.tab.browser_answer is None:  # (an agent task's turn: what it sends reaches no browser)
            raise NoBrowser()
        key = secrets.token_urlsafe(12)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        _PENDING[key] = (thread_run.tab.token, answer)
        try:
            thread_run.sink.send_event(script_event(_wrapped(script, arguments, key), callback=thread_run.tab.browser_answer))
            try:
                async with asyncio.timeout(seconds):
                    reply = await answer
            except TimeoutError:
                raise BrowserToolError(f"the browser did not answer within {seconds:g} s") from None
        finally:
            _PENDING.pop(key, None)
        if not reply.get("ok"):
            raise BrowserToolError(str(reply.get("error") or "the script failed"))
        return reply.get("value")


def deliver(token: str, reply: Any) -> bool:
    """A browser's answer (from the tab with this token): resolves the call it belongs to; False if none."""
    if not isinstance(reply, dict) or not isinstance(reply.get("k"), str):
        return False
    pending = _PENDING.get(reply["k"])
    if pending is None or pending[0] != token or pending[1].done():
        return False
    pending[1].set_result(reply)
    return True


def without_browser(token: str) -> None:
    """The tab with this token has no browser to run scripts (a test of copilot_ui.testing): the calls that wait for
    its answer end now, saying they need one."""
    for tab, answer in list(_PENDING.values()):
        if tab == token and not answer.done():
            answer.set_exception(NoBrowser())


def _wrapped(script: str, arguments: dict[str, Any], key: str) -> str:
    data, key = json.dumps(arguments, ensure_ascii=False, default=str), json.dumps(key)
    return (
        "(async () => { try { const run = (" + script + "); const value = await run(" + data + ");"
        f" return {{k: {key}, ok: true, value: value === undefined ? null : value}};"
        f" }} catch (error) {{ return {{k: {key}, ok: false, error: String((error && error.message) || error)}}; }} }})()"
    )
