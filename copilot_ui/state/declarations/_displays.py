"""The texts an app's card shows, made in Python (`display=` on a tool or on render_tool): money, dates, lists
formatted on the server from a call's arguments so far and its result, so that a card says "€4,200" as the page does.

They are made from what the conversation keeps (the arguments as the thread has them, the result it stored), never
from what only a live run knew: a conversation reopened from the store shows the same texts. An app's function that
fails, or returns anything but a dict, never stops the conversation: the card shows the raw values instead (each
argument, and each field of a result object, as text), and the log says so once per tool.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

logger = logging.getLogger("copilot_ui")

TEXT_LIMIT = 1000  # characters of one text a card is given
TEXTS_LIMIT = 100  # texts a card is given
_CACHE_LIMIT = 2000  # texts made, remembered by what they were made from (a card is drawn again at every change)

_made: dict[tuple[Callable[..., Any], str, str], dict[str, str]] = {}
_told: set[str] = set()  # tools whose display function failed, told in the log once


def display_texts(tool_name: str, display: Callable[..., Any], arguments: dict[str, Any], result: Any) -> dict[str, str]:
    """The texts of a call's card: `display(arguments so far, result or None)`, or the raw values when it fails."""
    key = (display, _canonical(arguments), _canonical(result))
    made = _made.get(key)
    if made is None:
        if len(_made) >= _CACHE_LIMIT:
            _made.clear()
        made = _made[key] = _made_by(tool_name, display, arguments, result)
    return made


def raw_texts(arguments: dict[str, Any], result: Any) -> dict[str, str]:
    """Each argument, and each field of a result object, as text: what a card shows when its display function fails."""
    fields = {**arguments, **(result if isinstance(result, dict) else {})}
    return _bounded({str(name): _text(value) for name, value in fields.items()})


def _made_by(tool_name: str, display: Callable[..., Any], arguments: dict[str, Any], result: Any) -> dict[str, str]:
    try:
        texts = display(dict(arguments), result)
        if not isinstance(texts, dict):
            raise TypeError(f"it returned {type(texts).__name__}, not a dict of texts")
    except Exception:
        if tool_name not in _told:
            _told.add(tool_name)
            logger.exception("the display function of %s failed; its card shows the raw values", tool_name)
        return raw_texts(arguments, result)
    return _bounded({str(name): value if isinstance(value, str) else _text(value) for name, value in texts.items()})


def _bounded(texts: dict[str, str]) -> dict[str, str]:
    kept = list(texts.items())[:TEXTS_LIMIT]
    return {name: text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + "…" for name, text in kept}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
