"""What the demo model says of the files a person attached: each file's kind and size, a CSV's name and rows.

A model receives an image or a PDF as pydantic-ai's BinaryContent (the bytes and their media type), after a text
part that names the file (`[Attached file: orders.csv (text/csv, 68 bytes)]`, see core._attachments); a text file as
its text, between markers that name it (see _text_files). The demo model answers with what it received, so that a
person, and a test, sees that the bytes arrived: "I got a PNG image of 34 KB." or "I got a CSV file, orders.csv,
3 rows."
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from pydantic_ai.messages import BinaryContent, ModelMessage, ModelRequest, UserContent, UserPromptPart

from ..core import size_text
from ..core._attachments import labelled_file
from ._text_files import read_file_text

_KINDS = {"application/pdf": "PDF document", "application/json": "JSON file", "text/markdown": "Markdown file"}


def attachments_said(messages: list[ModelMessage]) -> str | None:
    """What the model says of the files in the person's last message, when it brings some (None otherwise)."""
    last = messages[-1] if messages else None
    if not isinstance(last, ModelRequest):
        return None
    prompt = next((part for part in reversed(last.parts) if isinstance(part, UserPromptPart)), None)
    if prompt is None or isinstance(prompt.content, str):
        return None
    said = [_described(*file) for file in _files(prompt.content)]
    return " ".join(said) if said else None


def prompt_words(content: str | Sequence[UserContent]) -> str:
    """The words of a person's message, without the files and the labels that name them."""
    if isinstance(content, str):
        return content
    words = [part for part in content if isinstance(part, str) and not labelled_file(part) and not read_file_text(part)]
    return " ".join(words)


def _files(content: Sequence[UserContent]) -> list[tuple[str, bytes, str]]:
    """Each file as (media type, bytes, name): the name its label gave it ("" when it came without one)."""
    files, name = [], ""
    for part in content:
        if isinstance(part, BinaryContent):
            files.append((part.media_type, part.data, name))
            name = ""
        elif isinstance(part, str) and (as_text := read_file_text(part)) is not None:
            file_name, media_type, text = as_text
            files.append((media_type, text.encode(), file_name))
            name = ""
        elif isinstance(part, str):
            named = labelled_file(part)
            name = named[0] if named else ""
    return files


def _described(media_type: str, data: bytes, name: str) -> str:
    size = size_text(len(data))
    if media_type == "text/csv":
        return f"I got a CSV file, {name or 'without a name'}, {_rows(data)}."
    if media_type.startswith("image/"):
        kind = media_type.partition("/")[2].split("+")[0].upper()
        return f"I got a {kind} image of {size}."
    kind = _KINDS.get(media_type) or ("text file" if media_type.startswith("text/") else f"{media_type} file")
    named = f", {name}," if name else ""
    return f"I got a {kind}{named} of {size}."


def _rows(data: bytes) -> str:
    """The CSV's rows of data (its header aside)."""
    try:
        rows = [row for row in csv.reader(io.StringIO(data.decode("utf-8-sig"))) if any(cell.strip() for cell in row)]
    except (UnicodeDecodeError, csv.Error):
        return "which I cannot read as text"
    count = max(len(rows) - 1, 0)
    return f"{count} row" if count == 1 else f"{count} rows"
