"""A plain Reflex chat app, written the way Reflex users write one: the anchor `bench.load` measures the copilot
against.

The same pydantic-ai `Agent` on the same demo model as the copilot's built-in agent in the demo app (its
instructions, its backend tool `write_report` and its shared-state type; not the page's frontend tools, which a plain
app has none of): `run_stream`, its text deltas appended to the last message by an async-generator event handler,
which yields (Reflex sends the change) at most every 40 ms, the most often the copilot shows a change of text. For
like-for-like turns, `bench.load` has the demo model say what the copilot's demo said (ANCHOR_REPLY): the same
words, so the same pieces at the same pace.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator

import reflex as rx
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart
from pydantic_ai.ui import StateDeps

from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.server import DemoScript, Move, builtin_pydantic_agent, demo_model

SHOW_EVERY = 0.04  # seconds between two changes sent while a reply streams, at least
REPLY = os.environ.get("ANCHOR_REPLY", "")

model = demo_model(script=DemoScript(reply=lambda turn: Move(text=REPLY))) if REPLY else demo_model()
agent = builtin_pydantic_agent(model, tools=demo_backend_tools(), state_type=AgentReport)  # as copilot_ui.copilot_ui's


class ChatState(rx.State):
    """The conversation: each message a role ("user" or "assistant") and its text."""

    messages: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    running: rx.Field[bool] = rx.field(False)

    @rx.event
    async def send(self, form_data: dict[str, str]) -> AsyncIterator[None]:
        text = form_data.get("message", "").strip()
        if not text or self.running:
            return
        history = _history(self.messages)
        self.messages.append({"role": "user", "content": text})
        self.messages.append({"role": "assistant", "content": ""})
        self.running = True
        yield
        shown = time.monotonic()
        async with agent.run_stream(text, message_history=history, deps=StateDeps(AgentReport())) as result:
            async for delta in result.stream_text(delta=True, debounce_by=None):
                self.messages[-1]["content"] += delta
                if time.monotonic() - shown >= SHOW_EVERY:
                    shown = time.monotonic()
                    yield
        self.running = False


def _history(messages: list[dict[str, str]]) -> list[ModelMessage]:
    return [
        ModelRequest(parts=[UserPromptPart(message["content"])])
        if message["role"] == "user"
        else ModelResponse(parts=[TextPart(message["content"])])
        for message in messages
    ]


def message(entry: rx.Var[dict[str, str]]) -> rx.Component:
    return rx.box(rx.text(entry["content"]), class_name=entry["role"], padding="0.5rem")


def index() -> rx.Component:
    return rx.container(
        rx.vstack(rx.foreach(ChatState.messages, message), width="100%"),
        rx.form(
            rx.hstack(
                rx.input(name="message", placeholder="Write a message", width="100%"),
                rx.button("Send", type="submit", disabled=ChatState.running),
            ),
            on_submit=ChatState.send,
            reset_on_submit=True,
        ),
    )


app = rx.App()
app.add_page(index)
