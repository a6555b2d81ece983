"""How one copilot looks: its words, icons, own message components and shortcut, from the app's copilot and the
layout's keywords (the layout's win). The layout builds its panel inside `looking(...)`, so that every part reads
the same look with `look()` without it being handed down through each function.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import reflex as rx

from ..state import copilot
from ..state.declarations import DEFAULT_ICONS, Icon, Labels

MessageComponent = Callable[..., rx.Component]  # a function of a MessageView


@dataclass(frozen=True)
class Look:
    """The words, icons and components of one copilot on a page."""

    labels: Labels
    icons: dict[str, Icon] = field(default_factory=dict)
    user_message: MessageComponent | None = None
    assistant_message: MessageComponent | None = None
    empty_state: Callable[[Labels], rx.Component] | None = None
    shortcut: str = "mod+/"


def look_for_layout(
    *,
    labels: Labels | None = None,
    title: str | None = None,
    placeholder: str | None = None,
    greeting: str | None = None,
    icons: dict[str, Icon] | None = None,
    user_message: MessageComponent | None = None,
    assistant_message: MessageComponent | None = None,
    empty_state: Callable[[Labels], rx.Component] | None = None,
    shortcut: str | None = None,
) -> Look:
    """A layout's look: its keywords over the app's (`cui.copilot.labels`, `.icons`, `.user_message`...)."""
    words = labels or copilot.labels
    changed = {"title": title, "placeholder": placeholder, "greeting": greeting}
    words = words.but(**{name: value for name, value in changed.items() if value is not None})
    return Look(
        labels=words,
        icons={**copilot.icons, **(icons or {})},
        user_message=user_message or copilot.user_message,
        assistant_message=assistant_message or copilot.assistant_message,
        empty_state=empty_state or copilot.empty_state,
        shortcut=shortcut if shortcut is not None else copilot.shortcut,
    )


_CURRENT: contextvars.ContextVar[Look | None] = contextvars.ContextVar("cui_look", default=None)


@contextlib.contextmanager
def looking(chosen: Look) -> Iterator[Look]:
    """Build the copilot's parts with this look."""
    reset = _CURRENT.set(chosen)
    try:
        yield chosen
    finally:
        _CURRENT.reset(reset)


def look() -> Look:
    """The look of the copilot being built (the app's, outside a layout)."""
    return _CURRENT.get() or look_for_layout()


def words() -> Labels:
    """The words of the copilot being built."""
    return look().labels


def filled(template: str, placeholder: str, value: rx.vars.StringVar) -> rx.Var[str]:
    """A template of the labels ("Rename {title}") with its placeholder replaced by a value known in the browser."""
    before, _, after = template.partition(placeholder)
    return before + value + after


def icon(name: str, size: int = 16) -> rx.Component:
    """The icon called `name` (see DEFAULT_ICONS): the app's replacement, a lucide icon name or a component function."""
    chosen: Icon = look().icons.get(name, DEFAULT_ICONS.get(name, name))
    if callable(chosen):
        return chosen()
    if isinstance(chosen, rx.Component):
        return chosen
    return rx.icon(str(chosen), size=size, aria_hidden="true")


def shortcut_keys(shortcut: str) -> str:
    """A shortcut as aria-keyshortcuts names it ("mod+/" -> "Control+/ Meta+/")."""
    keys = [part.strip() for part in shortcut.split("+") if part.strip()] or ["/"]
    names = {"ctrl": "Control", "control": "Control", "meta": "Meta", "cmd": "Meta", "alt": "Alt", "shift": "Shift"}
    if shortcut.endswith("++"):
        keys.append("+")
    modifiers, key = keys[:-1], keys[-1]
    key = key.upper() if len(key) == 1 and key.isalpha() else key
    if any(part.lower() == "mod" for part in modifiers):
        rest = [names.get(part.lower(), part) for part in modifiers if part.lower() != "mod"]
        return " ".join("+".join([first, *rest, key]) for first in ("Control", "Meta"))
    return "+".join([*(names.get(part.lower(), part) for part in modifiers), key])


def shortcut_hint(shortcut: str, labels: Labels | None = None) -> str:
    """A shortcut as a tooltip shows it ("mod+/" -> "Ctrl+/ or ⌘/"), in these labels' words (the keys keep their
    names, as on the keys)."""
    said = labels or Labels()
    shown = [combo.replace("Control", "Ctrl").replace("Meta+", "⌘") for combo in shortcut_keys(shortcut).split(" ")]
    return said.said("keys_or", one=shown[0], other=shown[1]) if len(shown) == 2 else shown[0]
