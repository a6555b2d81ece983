"""What an approval shows of a waiting call: a title and a sentence in words, its arguments (as it will run) as
fields, editable where the tool allows; and the arguments as the person left them in its form. The chat's approval
dialog and the task panel's approval card both show and read a call this way.
"""

from __future__ import annotations

import json
import logging
import re
from types import SimpleNamespace
from typing import Any

from ag_ui.core import ToolCall

from ...core import ArgumentsInvalid, Tool
from ..declarations import ToolUI, copilot
from ._conversation import Item

logger = logging.getLogger("copilot_ui")

_told: set[str] = set()  # tools whose describe= function failed, told in the log once

_KINDS = {"string": "text", "number": "number", "integer": "integer", "boolean": "boolean"}


def approval_request(
    item_id: str, digest: str, call: ToolCall, arguments: dict[str, Any], tool: Tool | None, ui: ToolUI | None
) -> dict[str, Any]:
    """What the dialog shows for a waiting call: a sentence about its effect and its arguments (as it will run) as fields."""
    editable = ui.editable if ui is not None else False
    properties = (tool.parameters if tool is not None else {}).get("properties", {})
    names = list(dict.fromkeys([*properties, *arguments]))
    fields = [_field(name, properties.get(name, {}), arguments.get(name), _may_edit(editable, name)) for name in names]
    return {
        "item": item_id,
        "digest": digest,
        "tool": call.function.name,
        "title": dialog_title(call.function.name, tool, ui),
        "sentence": _sentence(call.function.name, arguments, tool, ui),
        "fields": [field for field in fields if field["value"] != "" or field["editable"]],
        "editable": any(field["editable"] for field in fields),
    }


def approved_arguments(shown: dict[str, Any], tool: Tool, ui: ToolUI | None, form: dict[str, Any]) -> dict[str, Any] | None:
    """The arguments an Approve runs the call with: those shown with the person's edits, checked against the tool's
    schema; None when the tool lets them edit nothing (the call runs as shown).

    Raises ValueError naming what does not fit (a field's text, or the tool's schema).
    """
    if not (ui is not None and ui.editable):
        return None
    arguments = _edited(shown, tool, ui, form)
    try:
        tool.validate(arguments)
    except ArgumentsInvalid as invalid:
        raise ValueError(str(invalid)) from None
    return arguments


def _edited(shown: dict[str, Any], tool: Tool, ui: ToolUI | None, form: dict[str, Any]) -> dict[str, Any]:
    """The arguments the dialog showed, with the person's edits from its form (fields they may not edit are kept).

    Raises ValueError naming the field whose text does not fit its type.
    """
    arguments = dict(shown)
    editable = ui.editable if ui is not None else False
    properties = tool.parameters.get("properties", {})
    for name, schema in properties.items():
        if not _may_edit(editable, name):
            continue
        kind = _kind(schema)
        if kind == "boolean":
            arguments[name] = form.get(f"arg:{name}") in ("on", "true", True)
        elif f"arg:{name}" in form:
            arguments[name] = _parsed(name, kind, str(form[f"arg:{name}"]))
    return arguments


def _field(name: str, schema: dict[str, Any], value: Any, editable: bool) -> dict[str, Any]:
    kind = _kind(schema)
    shown = value if isinstance(value, str) else ("" if value is None else json.dumps(value, ensure_ascii=False))
    if kind == "boolean":
        shown = "true" if value else "false"
    field = {
        "name": name,
        "key": f"arg:{name}",
        "label": name,
        "hint": schema.get("description", ""),
        "kind": kind,
        "value": shown,
        "editable": editable,
    }
    if "enum" in schema:
        field["options"] = [str(option) for option in schema["enum"]]
    return field


def _kind(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "choice"
    return _KINDS.get(str(schema.get("type")), "json")


def _parsed(name: str, kind: str, text: str) -> Any:
    if kind in ("text", "choice"):
        return text
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            return float(text)
        return json.loads(text)
    except ValueError:
        said = "not_a_number" if kind in ("integer", "number") else "not_json"
        raise ValueError(copilot.labels.said(said, name=name, value=text)) from None


def _may_edit(editable: bool | tuple[str, ...], name: str) -> bool:
    return editable is True or (isinstance(editable, tuple) and name in editable)


TITLE_WORDS = 60  # characters of a description's first sentence that still make a title


def dialog_title(name: str, tool: Tool | None, ui: ToolUI | None) -> str:
    """The dialog's title, a question in words: the tool's title, else its description's first sentence when
    short, else its name as words ("refund_order" → "Refund order?")."""
    title = ui.title if ui is not None and ui.title else ""
    if not title and tool is not None:
        first = re.split(r"[.:;!?\n]", tool.description.strip(), maxsplit=1)[0].strip()
        title = first if 0 < len(first) <= TITLE_WORDS else ""
    if not title:
        title = re.sub(r"[_\-]+|(?<=[a-z])(?=[A-Z])", " ", name).strip().lower()
    title = title.rstrip(" .?!")
    return title[:1].upper() + title[1:] + "?"


def _sentence(name: str, arguments: dict[str, Any], tool: Tool | None, ui: ToolUI | None) -> str:
    if ui is not None and ui.describe is not None and tool is not None:
        try:
            valid = tool.validate(arguments)
        except Exception:  # the agent's arguments do not fit: the description says what the tool does
            valid = None
        if valid is not None:
            try:
                return str(ui.describe(SimpleNamespace(**valid)))
            except Exception:  # the app's function failed: the description stands in, and the developer is told
                if name not in _told:
                    _told.add(name)
                    logger.warning("describe= of tool %s failed; the dialog shows its description", name, exc_info=True)
    description = tool.description.split("\n\n")[0].strip() if tool is not None else ""
    return description or copilot.labels.said("approval_sentence", tool=name)


def pending_approval(items: list[Item], dismissed: list[str]) -> tuple[str, str] | None:
    """The first card waiting for approval that the person has not decided nor set aside: (item id, digest)."""
    for item in items:
        if item.get("s") == "awaiting_approval" and item["id"] not in dismissed:
            return item["id"], item.get("d", "")
    return None
