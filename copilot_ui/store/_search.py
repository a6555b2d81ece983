"""How threads are found by their words: text folded so that case, accents and runs of white space do not matter.

A thread's shown title is kept folded in `search_title`, and each message's words in its row's
`search_text`, written with the message itself: a save folds only the messages it writes, and a
search reads no message bodies. The search words are folded the same way and looked for in both.
"""

from __future__ import annotations

import unicodedata

from ag_ui.core import Message
from sqlalchemy import ColumnElement, or_, select

from ._base import one_line, text_of
from ._schema import messages, threads

SEARCHED_ROLES = frozenset({"user", "assistant"})  # what the person wrote and the agent replied, not tools' output


def folded(text: str) -> str:
    """The text on one line, case-folded, without accents: "Crème  Brûlée" becomes "creme brulee"."""
    text = one_line(text).casefold()
    if text.isascii():  # most text: nothing to take apart
        return text
    decomposed = unicodedata.normalize("NFKD", text)  # é becomes e and a combining accent, ﬁ becomes fi
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def searchable_text(message: Message) -> str:
    """What a search reads of a message: its words folded, for a person's or the agent's message; else nothing."""
    if message.role not in SEARCHED_ROLES:
        return ""
    return folded(text_of(getattr(message, "content", None)))


def found_by(owner: str, words: str) -> ColumnElement[bool]:
    """A thread whose title or one of whose messages contains the words (folded already; % and _ are not wildcards).

    The messages are looked for among the owner's threads only: a search reads the owner's messages,
    not every owner's (PostgreSQL would otherwise scan the whole table for an EXISTS under OR).
    """
    m, owners = messages.c, threads.alias("owners_threads")
    said = (
        select(m.thread_pk)
        .join(owners, owners.c.pk == m.thread_pk)
        .where(owners.c.owner == owner, m.search_text.contains(words, autoescape=True))
    )
    return or_(threads.c.search_title.contains(words, autoescape=True), threads.c.pk.in_(said))
