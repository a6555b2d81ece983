"""Tools that run in the person's browser: a script of the app's, given the call's arguments as data.

The script is the app's own code (trusted); the arguments come from the agent (untrusted), so they
reach the script only as a JSON value, never as code. The script is wrapped so that it always
answers: its value, or the error it threw. The answer comes back through an event of the tab that
ran the call, matched by a one-time key; no answer within the timeout is an error result.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import reflex as rx

from ..core import ToolContext
from . import _drives as drives

_PENDING: dict[str, tuple[str, asyncio.Future[Any]]] = {}  # one-time key -> (tab token, its answer)


class BrowserToolError(Exception):
    """The script threw, or the browser did not answer in time."""


def browser_handler(script: str, timeout: float) -> Callable[..., Awaitable[Any]]:
    """A tool handler that runs `script` in the browser of the tab whose drive made the call."""

    async def run_in_browser(context: ToolContext, **arguments: Any) -> Any:
        from ._copilot import CopilotState

        drive = drives.current.get()
        if drive is None:
            raise BrowserToolError(f"{context.tool_name} runs in the person's browser, and no browser is connected here")
        key = secrets.token_urlsafe(12)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        _PENDING[key] = (drive.token, answer)
        try:
            drive.sink.send_event(rx.call_script(_wrapped(script, arguments, key), callback=CopilotState.browser_result))
            try:
                async with asyncio.timeout(timeout):
                    reply = await answer
            except TimeoutError:
                raise BrowserToolError(f"the browser did not answer within {timeout:g} s") from None
        finally:
            _PENDING.pop(key, None)
        if not reply.get("ok"):
            raise BrowserToolError(str(reply.get("error") or "the script failed"))
        return reply.get("value")

    return run_in_browser


def deliver(token: str, reply: Any) -> bool:
    """A browser's answer (from the tab with this token): resolves the call it belongs to; False if none."""
    if not isinstance(reply, dict) or not isinstance(reply.get("k"), str):
        return False
    pending = _PENDING.get(reply["k"])
    if pending is None or pending[0] != token or pending[1].done():
        return False
    pending[1].set_result(reply)
    return True


def _wrapped(script: str, arguments: dict[str, Any], key: str) -> str:
    data, key = json.dumps(arguments, ensure_ascii=False, default=str), json.dumps(key)
    return (
        "(async () => { try { const run = (" + script + "); const value = await run(" + data + ");"
        f" return {{k: {key}, ok: true, value: value === undefined ? null : value}};"
        f" }} catch (error) {{ return {{k: {key}, ok: false, error: String((error && error.message) || error)}}; }} }})()"
    )
