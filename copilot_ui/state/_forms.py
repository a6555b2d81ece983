"""What a question card's form answers (`ToolCallView.form`): the card it names, and the person's answer.

The answer is a dict of the form's fields by name: a text field's text; a checkbox alone under its
name True when ticked and False when not (unticked ones are there too: `cui_form.jsx` adds them); a
group of checkboxes sharing a name, the list of the values of those ticked; any other field whose
name repeats, the list of its values. The fields naming the card are left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

RESPOND_ITEM, RESPOND_DIGEST = "__cui_item", "__cui_digest"  # the hidden fields naming the card a form answers
FIELDS = "__cui_fields"  # what the browser says of the form's checkboxes (cui_form.jsx)
_OURS = (RESPOND_ITEM, RESPOND_DIGEST, FIELDS)
Form = dict[str, Any]  # a form's fields by name, as Reflex hands them to an on_submit handler


def form_answer(form: Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """The card a question form answers (its item id and digest) and the person's answer."""
    entries = _entries(form)
    names = dict.fromkeys(name for name, _ in entries if name not in _OURS)
    described = _described(_last(entries, FIELDS))
    checkboxes, groups = set(described.get("checkboxes", ())), set(described.get("groups", ()))
    answer: dict[str, Any] = {}
    for name in names:
        values = [value for key, value in entries if key == name]
        if name in checkboxes:
            answer[name] = values[-1] in ("true", "on", True)
        elif name in groups or len(values) > 1:
            answer[name] = values
        else:
            answer[name] = values[-1]
    for name in groups - set(answer):  # a group with nothing ticked
        answer[name] = []
    return str(_last(entries, RESPOND_ITEM) or ""), str(_last(entries, RESPOND_DIGEST) or ""), answer


def _entries(form: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Every (name, value) the form sent, repeated names included (Reflex's FormData keeps them)."""
    items: Callable[[], Iterable[tuple[str, Any]]] | None = getattr(form, "multi_items", None)
    return list(items()) if callable(items) else list(form.items())


def _last(entries: list[tuple[str, Any]], name: str) -> Any:
    return next((value for key, value in reversed(entries) if key == name), None)


def _described(text: object) -> dict[str, Any]:
    try:
        value = json.loads(text) if isinstance(text, str) and text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
