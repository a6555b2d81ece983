"""The files of a person's message as its item carries them: id, name (as text), size in bytes, image or not.

The browser draws them (cui_attach.jsx): an image as a thumbnail (<img>, from the copilot's attachment URL, which only
the owner's tab can use), any other file as a chip with its name and size (in the layout's words). The name is
untrusted: shown as text.
"""

from __future__ import annotations

from typing import Any

from ag_ui.core import TextPart, UserMessage

from ...core import attachments_of
from ...core._attachments import shown_name


def files_field(message: UserMessage) -> dict[str, Any]:
    """The item's "f" field (its files), or nothing for a message without files."""
    files = [
        {"id": attachment.id, "n": shown_name(attachment.name), "s": attachment.size, "i": int(attachment.is_image)}
        for attachment in attachments_of(message)
    ]
    return {"f": files} if files else {}


def words_of(content: list[Any]) -> str:
    """The words of a message made of parts (text, files): its text parts."""
    return "\n".join(part.text for part in content if isinstance(part, TextPart))
