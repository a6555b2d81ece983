"""The person rates a reply (Good response / Bad response, with an optional comment): shown as chosen, kept with the
message in the store, then told to the app's feedback hooks."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ..store import Rating
from ._forms import Form
from ._owner import owner_of_tab
from ._tab import current, show_items
from .declarations import Feedback, copilot, tell_feedback
from .turns import written

if TYPE_CHECKING:
    from ._copilot import CopilotState

logger = logging.getLogger("copilot_ui.state")

COMMENT_LIMIT = 2_000  # characters of a comment on a reply kept and told to the app


async def rate(state: CopilotState, form: Form) -> None:
    """Rate the reply the form names (its item id) "good" or "bad"; anything else is ignored."""
    item_id, rating = str(form.get("item") or ""), str(form.get("rating") or "")
    comment = str(form.get("comment") or "").strip()[:COMMENT_LIMIT]
    if rating not in ("good", "bad"):
        return
    async with state:
        owner = await owner_of_tab(state)
        thread, conversation = current(state)
        message_id = conversation.message_of(item_id)
        reply = thread.message(message_id) if message_id is not None else None
        if reply is None or reply.role != "assistant":
            return
        conversation.ratings[reply.id] = rating
        show_items(state, conversation.items(thread))
        feedback = Feedback(
            thread_id=thread.id,
            message_id=reply.id,
            text=copilot.scrubber().scrub(reply.content) if isinstance(reply.content, str) else "",
            rating=rating,  # type: ignore[arg-type]
            comment=comment,
            owner=owner,
            agent_id=state.agent,
            model=state.model,
            run_id=conversation.runs.get(reply.id, ""),
        )
    store = await copilot.open_store()
    if store is not None and conversation.created:
        try:
            await written(thread.id)  # (the reply's own save may be on its way)
            await asyncio.to_thread(store.rate, owner, thread.id, reply.id, Rating(rating=feedback.rating, comment=comment))
        except Exception:
            logger.exception("keeping the rating of a reply in conversation %s failed", thread.id)
    await tell_feedback(copilot.feedback_hooks, feedback)
