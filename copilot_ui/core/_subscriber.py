"""Delivering loop events to the subscriber (sync or async): a subscriber that fails is logged, never breaks a run."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable

from ._events import Event

logger = logging.getLogger("copilot_ui.core")

Emit = Callable[[Event], "Awaitable[None] | None"]


async def deliver(emit: Emit | None, event: Event) -> None:
    """Hand one event to the subscriber and wait until it took it."""
    pending = start_delivery(emit, event)
    if pending is not None:
        await finish_delivery(pending)


def start_delivery(emit: Emit | None, event: Event) -> Awaitable[object] | None:
    """Hand one event over without waiting (for code that cannot await); the awaitable to finish it, if any."""
    if emit is None:
        return None
    try:
        result = emit(event)
    except Exception:
        logger.exception("an event subscriber failed")
        return None
    return result if inspect.isawaitable(result) else None


async def finish_delivery(pending: Awaitable[object]) -> None:
    """Wait for a delivery start_delivery() began."""
    try:
        await pending
    except Exception:
        logger.exception("an event subscriber failed")
