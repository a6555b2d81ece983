"""What reaches the page besides the state: the scripts that fill the browser's text store (`cui_text.jsx`), appended
pieces and whole texts handed over; and the id of the message box, which events focus and refill.

A script can reach a tab before the page has loaded the store (a reload while a reply streams): it
then does nothing, and each text component asks for its text once it mounts, so nothing is lost.
"""

from __future__ import annotations

import json
from typing import Any

COMPOSER_INPUT_ID = "cui-message"  # the message box: focused after a decision, refilled with what Stop handed back


def append_script(tid: str, seq: int, piece: str) -> str:
    """Append piece number `seq` (from 0) to the text `tid`."""
    return f"window.__cuiA?.({json.dumps(tid)},{seq},{json.dumps(piece, ensure_ascii=False)})"


def whole_texts_script(texts: dict[str, list[Any]], *, replace: bool = False) -> str:
    """Hand over whole texts: {tid: [seq, text]} (a text the tab has at a later seq is kept, unless they `replace` it:
    the texts of a conversation nothing writes any more, as kept, which the pieces a tab got before may not be)."""
    return f"window.__cuiS?.({json.dumps(texts, ensure_ascii=False)}{',1' if replace else ''})"
