"""The browser's text store (`cui_text.jsx`), filled by scripts: what a tab that lacks texts is given, exactly what
was sent of a text being written and the whole of the others.

A tab lacks texts after a reload, a reconnect, or when older items come into view. A text still
being written is handed over as far as its pieces went (with their count: `so_far`, from the sink
that writes it), so that the pieces still to come follow it exactly; any other text whole, as the
thread has it now, scrubbed. A script can reach a tab before the page has loaded the store (a
reload while a reply streams): it then does nothing, and each text component asks for its text
once it mounts, so nothing is lost.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ...agents import Scrubber
from ...core import Thread
from ._conversation import Conversation

MOST_AT_ONCE = 200  # text ids one request may ask for
SoFar = Callable[[str], "tuple[int, str] | None"]  # a text being written: (its last piece's seq, what was sent); None


def handover(
    tids: Any, thread: Thread, conversation: Conversation, so_far: SoFar | None, scrubber: Scrubber, *, replace: bool = False
) -> str:
    """The script that hands these texts to the tab ("" when there is nothing to give); `replace`: they replace what the
    tab holds (nothing writes the conversation any more)."""
    if not isinstance(tids, list):
        return ""
    texts: dict[str, list[Any]] = {}
    for tid in tids[:MOST_AT_ONCE]:
        if not isinstance(tid, str):
            continue
        written = so_far(tid) if so_far is not None else None
        if written is not None:
            texts[tid] = [written[0], written[1]]
            continue
        whole = conversation.text_of(tid, thread)
        if whole is not None:
            texts[tid] = [conversation.seqs.get(tid, 0), scrubber.scrub(whole)]
    return whole_texts_script(texts, replace=replace) if texts else ""


def window_texts(
    thread: Thread, conversation: Conversation, so_far: SoFar | None, scrubber: Scrubber, window: int, *, replace: bool = False
) -> str:
    """The script that hands over the texts of the last `window` items: sent before the items, so that a
    conversation opened in a tab shows at once, without the tab asking for each text (`replace`: see `handover`)."""
    tids = []
    for item in conversation.items(thread)[-window:]:
        item_id = str(item["id"])
        tids += [item_id, f"{item_id}.a", f"{item_id}.r", f"{item_id}.q"]  # a card's arguments, result, question
    return handover(tids, thread, conversation, so_far, scrubber, replace=replace)


def whole_texts_script(texts: dict[str, list[Any]], *, replace: bool = False) -> str:
    """Hand over whole texts: {tid: [seq, text]} (a text the tab has at a later seq is kept, unless they `replace` it:
    the texts of a conversation nothing writes any more, as kept, which the pieces a tab got before may not be)."""
    return f"window.__cuiS?.({json.dumps(texts, ensure_ascii=False)}{',1' if replace else ''})"
