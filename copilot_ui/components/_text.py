"""A text from the agent side, shown safely: the Reflex wrapper of `CuiText` (cui_text.jsx).

The text itself never travels in Reflex state: the component shows the text with its id from the
browser's text store, which the backend fills with appended pieces and whole texts.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import passthrough_event_spec

from ..state import CopilotState, copilot
from ._looks import words

_RUNTIME = rx.asset("cui_text.jsx", shared=True)
rx.asset("cui_plain_text.jsx", shared=True)  # imported by cui_text.jsx: as an asset of this module, it sits beside it


class CuiText(rx.Component):
    """The text with id `tid`: Markdown without raw HTML, safe links and images, cut past `limit`."""

    library = _RUNTIME.importable_path
    tag = "CuiText"
    lib_dependencies: list[str] = ["streamdown@2.7.1"]  # noqa: RUF012 (Reflex reads it from the class)

    tid: rx.Var[str]  # the text's id in the browser's text store
    markdown: rx.Var[bool]  # shown as safe Markdown (else as plain text)
    live: rx.Var[bool]  # it still grows: incomplete Markdown is closed as it streams
    limit: rx.Var[int]  # characters shown before "Show all" (past them: plain text, cut)
    image_hosts: rx.Var[list[str]]  # hosts Markdown images may load from (others become links)
    more_words: rx.Var[str]  # under a cut text: "{count} more characters"
    show_all_words: rx.Var[str]  # the "Show all" button's words
    on_need: rx.EventHandler[passthrough_event_spec(list[str])]


def text(
    tid: rx.Var[str] | str, *, markdown: bool = True, live: rx.Var[bool] | bool = False, limit: int | None = None, **props: Any
) -> rx.Component:
    """The text with this id, as the copilot shows texts (the limit and allowed image hosts from the app's copilot)."""
    said = words()
    return CuiText.create(
        more_words=said.more_characters,
        show_all_words=said.show_all,
        tid=tid,
        markdown=markdown,
        live=live,
        limit=limit if limit is not None else copilot.text_limit,
        image_hosts=copilot.image_hosts,
        on_need=CopilotState.need_texts,
        **props,
    )
