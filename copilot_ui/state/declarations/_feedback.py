"""What an app is told when a person rates a reply (Good response / Bad response): the `Feedback` its hook receives.

    @cui.copilot.on_feedback
    async def collect(feedback: cui.Feedback) -> None:
        await analytics.record(feedback.rating, feedback.comment, feedback.model)

The rating is kept with the message in the store before the hooks are called; a hook that fails is logged, and the
person's rating stands.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

logger = logging.getLogger("copilot_ui.feedback")


@dataclass(frozen=True, kw_only=True)
class Feedback:
    """A person's rating of one reply, with where it comes from."""

    thread_id: str  # the conversation
    message_id: str  # the reply (its AG-UI message id)
    text: str  # the reply's words, as the person read them
    rating: Literal["good", "bad"]
    comment: str = ""  # why, in the person's words (offered with Bad response)
    owner: str = ""  # whose conversation it is (the app's user id, or the browser's anonymous id)
    agent_id: str = ""  # the agent that wrote the reply
    model: str = ""  # the model it answers with, where the app knows it ("" for a remote agent)
    run_id: str = ""  # the agent's run that wrote it ("" when not known, as for a conversation kept before)


FeedbackHook = Callable[[Feedback], "Awaitable[None] | None"]


async def tell_feedback(hooks: list[FeedbackHook], feedback: Feedback) -> None:
    """Call each hook with the feedback, in order; one that raises is logged and the others still hear it."""
    for hook in hooks:
        try:
            answer = hook(feedback)
            if inspect.isawaitable(answer):
                await answer
        except Exception:
            logger.exception("the feedback hook %r failed", getattr(hook, "__name__", hook))
