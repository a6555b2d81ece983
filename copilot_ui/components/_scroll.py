"""Keeping the conversation scrolled to its end while it grows, unless the person scrolled up to read."""

from __future__ import annotations

from typing import Any

import reflex as rx


class StickToBottom(rx.Fragment):
    """Renders nothing; scrolls the element with `target` id to its end whenever its content changes."""

    target: str

    def add_imports(self) -> dict[str, Any]:
        return {"react": [rx.ImportVar(tag="useEffect")]}

    def _exclude_props(self) -> list[str]:
        return [*super()._exclude_props(), "target"]

    def add_hooks(self) -> list[Any]:
        return [
            f"""useEffect(() => {{
    const element = document.getElementById({self.target!r});
    if (!element) return;
    let nearEnd = true;
    const onScroll = () => {{ nearEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 80; }};
    const follow = new MutationObserver(() => {{ if (nearEnd) element.scrollTop = element.scrollHeight; }});
    element.addEventListener("scroll", onScroll);
    follow.observe(element, {{childList: true, subtree: true, characterData: true}});
    element.scrollTop = element.scrollHeight;
    return () => {{ element.removeEventListener("scroll", onScroll); follow.disconnect(); }};
}}, []);"""
        ]


def stick_to_bottom(target: str) -> rx.Component:
    """Keep the element with this id scrolled to its end as it grows."""
    return StickToBottom.create(target=target)
