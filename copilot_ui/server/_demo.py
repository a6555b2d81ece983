"""The demo model: a deterministic stand-in for a language model, so the app works offline with no key.

It answers in a few sentences, streamed word by word. Asked to switch the dashboard to dark or
light mode, it calls the `set_theme` tool when the page offers it, then answers by quoting the
tool's result and what the page's context now says about the theme.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator

from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

WORD_DELAY = 0.02  # seconds between streamed words: a pace a person can watch

_THEME_REQUEST = re.compile(r"\b(dark|light)\s*(mode|theme)?\b", re.IGNORECASE)


def demo_model(word_delay: float = WORD_DELAY) -> FunctionModel:
    """A FunctionModel that streams deterministic replies and calls set_theme when asked."""

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        request = messages[-1] if messages and isinstance(messages[-1], ModelRequest) else None
        returns = [part for part in (request.parts if request else ()) if isinstance(part, ToolReturnPart)]
        if returns:
            reply = _after_tools(returns, info.instructions or "")
        else:
            prompt = _last_prompt(messages)
            call = _theme_call(prompt, info)
            if call is not None:
                yield call
                return
            reply = _answer(prompt)
        for word in _words(reply):
            await asyncio.sleep(word_delay)
            yield word

    return FunctionModel(stream_function=stream, model_name="copilot-demo")


def _answer(prompt: str) -> str:
    if not prompt.strip():
        return "I'm here. Ask me anything about the dashboard."
    greeting = "Hello!" if re.search(r"\b(hi|hello|hey)\b", prompt, re.IGNORECASE) else "Thanks for your message."
    return (
        f"{greeting} I'm the demo copilot, running offline on a built-in model, so my answers are scripted. "
        "I can see what the dashboard shows and change it for you: try asking me to switch to dark mode. "
        "Connect a real model or any AG-UI agent server to get real answers."
    )


def _theme_call(prompt: str, info: AgentInfo) -> DeltaToolCalls | None:
    match = _THEME_REQUEST.search(prompt)
    offered = {tool.name for tool in info.function_tools}
    if match is None or "set_theme" not in offered or not re.search(r"\b(switch|change|set|make|turn|use)\b", prompt, re.I):
        return None
    mode = match.group(1).lower()
    return {
        0: DeltaToolCall(name="set_theme", json_args=json.dumps({"mode": mode}), tool_call_id=f"call_{uuid.uuid4().hex[:16]}")
    }


def _after_tools(returns: list[ToolReturnPart], instructions: str) -> str:
    said = " ".join(f"{part.model_response_str()}" for part in returns)
    theme = _theme_in_context(instructions)
    seen = f" The dashboard now shows the {theme} theme." if theme else ""
    return f"Done: {said}{seen}"


def _theme_in_context(instructions: str) -> str | None:
    match = re.search(r'"theme"\s*:\s*"(\w+)"', instructions)
    return match.group(1) if match else None


def _last_prompt(messages: list[ModelMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, ModelRequest):
            for part in reversed(message.parts):
                if isinstance(part, UserPromptPart):
                    return part.content if isinstance(part.content, str) else " ".join(map(str, part.content))
    return ""


def _words(text: str) -> list[str]:
    return re.findall(r"\S+\s*", text)
