"""The demo model: a deterministic stand-in for a language model, so the app works offline with no key.

It answers in a few sentences, streamed word by word. When the page offers the tool for it, it
switches the theme ("switch to dark mode"), refunds an order ("refund order 1041") or asks the person
a question ("ask me something"), then answers
by quoting the tool's result and what the page's context, read again after the tool ran, shows.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

WORD_DELAY = 0.02  # seconds between streamed words: a pace a person can watch

_THEME = re.compile(r"\b(switch|change|set|make|turn|use)\b.*\b(dark|light)\b", re.IGNORECASE)
_REFUND = re.compile(r"\brefund\b.*?#?(\d{3,})", re.IGNORECASE)
_ASK = re.compile(r"\bask me\b", re.IGNORECASE)
_ORDER_ID = re.compile(r"#(\d{3,})")


def demo_model(word_delay: float = WORD_DELAY) -> FunctionModel:
    """A FunctionModel that streams deterministic replies and calls the demo dashboard's tools when asked."""

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        request = messages[-1] if messages and isinstance(messages[-1], ModelRequest) else None
        returns = [part for part in (request.parts if request else ()) if isinstance(part, ToolReturnPart)]
        if returns:
            reply = _after_tools(returns, _page(info.instructions or ""))
        else:
            prompt = _last_prompt(messages)
            call = _tool_call(prompt, {tool.name for tool in info.function_tools})
            if call is not None:
                yield {0: call}
                return
            reply = _answer(prompt)
        for word in _words(reply):
            await asyncio.sleep(word_delay)
            yield word

    return FunctionModel(stream_function=stream, model_name="copilot-demo")


def _tool_call(prompt: str, offered: set[str]) -> DeltaToolCall | None:
    call_id = f"call_{uuid.uuid4().hex[:16]}"
    if "set_theme" in offered and (theme := _THEME.search(prompt)):
        return DeltaToolCall(name="set_theme", json_args=json.dumps({"mode": theme.group(2).lower()}), tool_call_id=call_id)
    if "refund_order" in offered and (refund := _REFUND.search(prompt)):
        arguments = {"order_id": f"#{refund.group(1)}", "reason": "asked for in the chat"}
        return DeltaToolCall(name="refund_order", json_args=json.dumps(arguments), tool_call_id=call_id)
    if "ask_user" in offered and _ASK.search(prompt):
        arguments = {"question": "Which region should the dashboard focus on?"}
        return DeltaToolCall(name="ask_user", json_args=json.dumps(arguments), tool_call_id=call_id)
    return None


def _answer(prompt: str) -> str:
    if not prompt.strip():
        return "I'm here. Ask me anything about the dashboard."
    greeting = "Hello!" if re.search(r"\b(hi|hello|hey)\b", prompt, re.IGNORECASE) else "Thanks for your message."
    return (
        f"{greeting} I'm the demo copilot, running offline on a built-in model, so my answers are scripted. "
        "I can see what the dashboard shows and change it for you: try asking me to switch to dark mode, "
        "or to refund order 1041. Connect a real model or any AG-UI agent server to get real answers."
    )


def _after_tools(returns: list[ToolReturnPart], page: dict[str, Any]) -> str:
    sentences = []
    for part in returns:
        said = part.content if isinstance(part.content, str) else part.model_response_str()
        if part.outcome != "success" or said.startswith("Error:"):
            sentences.append(f"That did not happen: {said.removeprefix('Error:').strip()}.")
            continue
        sentences.append(f"Done: {said}")
        if part.tool_name == "set_theme" and page.get("theme"):
            sentences.append(f"The dashboard now shows the {page['theme']} theme.")
        elif part.tool_name == "refund_order" and (order := _order(page, said)):
            sentences.append(f"The dashboard lists order {order['id']} as {order['status']}.")
    return " ".join(sentences)


def _page(instructions: str) -> dict[str, Any]:
    """What the page's context says (its JSON objects merged), as the page sent it with this request."""
    page: dict[str, Any] = {}
    for line in instructions.splitlines():
        start = line.find("{")
        if line.startswith("- ") and start >= 0:
            try:
                value, _ = json.JSONDecoder().raw_decode(line[start:])
            except ValueError:
                continue
            if isinstance(value, dict):
                page.update(value)
    return page


def _order(page: dict[str, Any], said: str) -> dict[str, Any] | None:
    match = _ORDER_ID.search(said)
    orders = page.get("recent_orders") or []
    return next((order for order in orders if match and order.get("id") == f"#{match.group(1)}"), None)


def _last_prompt(messages: list[ModelMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, ModelRequest):
            for part in reversed(message.parts):
                if isinstance(part, UserPromptPart):
                    return part.content if isinstance(part.content, str) else " ".join(map(str, part.content))
    return ""


def _words(text: str) -> list[str]:
    return re.findall(r"\S+\s*", text)
