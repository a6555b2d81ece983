"""Tools that run in the person's browser: a script of the app's, run in the tab whose turn made the call.

The script is the app's own code (trusted); the arguments come from the agent (untrusted), so they
reach the script only as a JSON value, never as code. How a script reaches a tab and its answer
comes back is the concern of where turns run (`turns/_browser_answers.py`): it puts the tab of the
turn running the call in `current_page` for the call's task.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Protocol

from ...core import ToolContext
from ...errors import BrowserToolError, NoBrowser


class BrowserPage(Protocol):
    """The tab a turn shows in, as a browser tool reaches it."""

    async def run_script(self, script: str, arguments: dict[str, Any], seconds: float) -> Any:
        """Run `script` (a JavaScript function) on `arguments` in the tab: its value; BrowserToolError if it threw or
        did not answer within `seconds`."""


current_page: ContextVar[BrowserPage | None] = ContextVar("copilot_ui_browser_page", default=None)


def browser_handler(script: str, timeout: float) -> Callable[..., Awaitable[Any]]:
    """A tool handler that runs `script` in the browser of the tab whose turn made the call."""

    async def run_in_browser(context: ToolContext, **arguments: Any) -> Any:
        page = current_page.get()
        try:
            if page is None:
                raise NoBrowser
            return await page.run_script(script, arguments, timeout)
        except NoBrowser:
            raise BrowserToolError(
                f"{context.tool_name} runs in the person's browser, and no browser is connected here"
            ) from None

    return run_in_browser
