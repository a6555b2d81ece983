"""A text file a person attached (CSV, Markdown, JSON, plain text) reaches the built-in agent's model as its text.

Every model reads text; not every provider takes such a file as a document (pydantic-ai's Anthropic model refuses a
CSV, and the run would fail). So before each model request the file's bytes become its text, between markers that
name it, in the place the file had. Images and PDFs stay as they are (BinaryContent) for a multimodal model.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterator
from typing import TypeGuard

from pydantic_ai.messages import BinaryContent, ModelMessage, ModelRequest, UserPromptPart

from ..core._attachments import labelled_file

_TEXT_TYPES = {"application/json", "application/xml", "application/yaml", "application/x-yaml", "application/toml"}
_BEGIN = re.compile(r'^-----BEGIN FILE name="(?P<name>[^"]*)" type="(?P<mime>[^"]+)"-----\n')


async def text_files_as_text(messages: list[ModelMessage]) -> list[ModelMessage]:
    """The messages with each text file of a person's prompt replaced by its text (the others unchanged).

    A coroutine, so that pydantic-ai calls it on the event loop: it runs a sync one in a worker thread, before every
    model request, and under load that handoff delayed each reply's first words. Only the decoding of files goes
    to a worker thread, when there are any.
    """
    if not any(_is_text_file(item) for item in _prompt_items(messages)):
        return messages
    return await asyncio.to_thread(_with_text_files_decoded, messages)


# pydantic-ai reads a history processor's type hints before every model request, to see whether it takes a
# RunContext; resolving `list[ModelMessage]` from its text took about 0.3 ms each time. Resolved hints say the same.
text_files_as_text.__annotations__ = {"messages": list, "return": list}


def _with_text_files_decoded(messages: list[ModelMessage]) -> list[ModelMessage]:
    return [_with_text_files(message) if isinstance(message, ModelRequest) else message for message in messages]


def _prompt_items(messages: list[ModelMessage]) -> Iterator[object]:
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart) and not isinstance(part.content, str):
                    yield from part.content


def file_text(name: str, media_type: str, text: str) -> str:
    """A text file as the model reads it: its name and type, then its text, between markers."""
    shown = name.replace('"', "'")
    return f'-----BEGIN FILE name="{shown}" type="{media_type}"-----\n{text}\n-----END FILE name="{shown}"-----'


def read_file_text(text: str) -> tuple[str, str, str] | None:
    """(name, media type, text) of a file put in a prompt by file_text(); None for any other text."""
    match = _BEGIN.match(text)
    if match is None:
        return None
    body = text[match.end() :]
    return match["name"], match["mime"], body[: body.rfind("\n-----END FILE")] if "\n-----END FILE" in body else body


def _with_text_files(request: ModelRequest) -> ModelRequest:
    parts = [_prompt_with_text_files(part) if isinstance(part, UserPromptPart) else part for part in request.parts]
    return (
        request
        if all(new is old for new, old in zip(parts, request.parts, strict=True))
        else dataclasses.replace(request, parts=parts)
    )


def _prompt_with_text_files(part: UserPromptPart) -> UserPromptPart:
    if isinstance(part.content, str) or not any(_is_text_file(item) for item in part.content):
        return part
    content, name = [], ""
    for item in part.content:
        if isinstance(item, str):
            named = labelled_file(item)
            name = named[0] if named else ""
        if _is_text_file(item):
            content.append(file_text(name or "file", item.media_type, item.data.decode("utf-8", errors="replace")))
            continue
        content.append(item)
    return dataclasses.replace(part, content=content)


def _is_text_file(item: object) -> TypeGuard[BinaryContent]:
    if not isinstance(item, BinaryContent):
        return False
    media_type = item.media_type.split(";")[0].strip()
    return media_type.startswith("text/") or media_type in _TEXT_TYPES or media_type.endswith(("+json", "+xml"))
