"""Files a person attaches to a message: what is accepted, how the thread refers to them, how the agent gets them.

The thread never holds an attachment's bytes (it lives in the tab's state and in the store's message rows): a user
message holds one AG-UI media part per file (ImagePart for images, DocumentPart for the rest), whose source is a
reference, `copilot-attachment:<id>`, and whose metadata names the file. Only when the agent runs are the references
replaced by the bytes (DataSource, base64), each after a text part that names the file: a model reads a file's name,
type and size from that text, since AG-UI 1.0's parts carry no file name and pydantic-ai passes only the bytes and
their media type on (BinaryContent).

AG-UI 1.0 retired the `{"type": "binary"}` part (BinaryInputContent): its binary input content is these media parts
with a data source, which pydantic-ai's AG-UI adapter turns into BinaryContent for the model.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import cast

from ag_ui.core import ContentPart, DataSource, DocumentPart, ImagePart, Message, TextPart, UrlSource, UserMessage

from .._checks import invalid_option, keywords_checked, whole_number
from ..protocol._json import JSONObject

REFERENCE = "copilot-attachment:"  # the source of a media part whose bytes the copilot keeps
MB = 1_000_000
_LABEL = re.compile(r"^\[Attached file: (?P<name>.+) \((?P<mime>[^,()]+), [^()]+\)\]$")

# What an app accepts unless it says otherwise: images, PDF and plain data files.
DEFAULT_TYPES = (
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "application/pdf",
    "text/csv",
    "text/plain",
    "text/markdown",
    "application/json",
)
# A file's type is read from its name's extension first: browsers disagree on .csv and .md (or give none).
TYPES_BY_EXTENSION = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "svg": "image/svg+xml",
    "pdf": "application/pdf",
    "csv": "text/csv",
    "txt": "text/plain",
    "md": "text/markdown",
    "markdown": "text/markdown",
    "json": "application/json",
}

# Why a file is refused, in the copilot's default words; an app's own words are labels of the same names (cui.Labels),
# filled with the same fields.
REFUSALS = {
    "file_type_refused": "{name}: this type of file is not accepted",
    "file_empty": "{name} is empty",
    "file_too_big": "{name} is {size}; the limit is {limit}",
    "too_many_files": "{name}: a message takes at most {count} files",
    "conversation_full": "{name}: this conversation holds {held} of files; the limit is {limit}",
    "too_many_unsent": "{name}: {count} files are waiting to be sent already; send them or remove some first",
}


@dataclass(frozen=True)
class Refusal:
    """Why a file is refused: which of the REFUSALS, and what fills it (a name, counts; sizes in bytes, which
    `worded` writes as people read them: the fields SIZE_FIELDS)."""

    key: str
    fields: dict[str, str | int]

    def worded(self, words: object = None) -> str:
        """In the words of `words` (any object with the REFUSALS' names as attributes: cui.Labels), else the defaults."""
        template = getattr(words, self.key, None) or REFUSALS[self.key]
        shown = {name: size_text(int(value), words) if name in SIZE_FIELDS else value for name, value in self.fields.items()}
        return fill_template(str(template), shown)

    def __str__(self) -> str:
        return self.worded()


SIZE_FIELDS = ("size", "limit", "held")  # a Refusal's fields that are sizes in bytes
# How a size is written (`size_text`): cui.Labels has them under the same names, to say them in another language.
SIZE_WORDS = {"one_byte": "1 byte", "bytes_size": "{count} bytes", "kilobytes": "{size} KB", "megabytes": "{size} MB"}


def fill_template(template: str, fields: dict[str, str | int]) -> str:
    """The template with its {placeholders} filled in one pass (a name with braces in it stays as it is)."""
    return re.sub(r"\{(\w+)\}", lambda match: str(fields.get(match[1], match[0])), template)


# The only types a file's URL opens in the browser: raster images, which run nothing. Every other type (SVG, HTML,
# PDF…) downloads instead.
INLINE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
# A media type as RFC 6838 spells one: type/subtype, nothing more ("image/png, text/html" is not one).
_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}")
_MEDIA_FAMILY = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/\*")  # image/* takes every image
TYPES_TAKE = 'it takes media types in lower case, type/subtype or type/* (e.g. ("image/*", "application/pdf"))'

AttachmentBytes = Callable[[list[str]], Awaitable[dict[str, bytes]]]
"""Gives the bytes of the attachments named (by id) that it holds: how the loop reaches them when the agent runs."""


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file attached to a person's message: its id (where its bytes are kept), name, media type and size."""

    id: str
    name: str
    mime_type: str
    size: int

    @property
    def is_image(self) -> bool:
        """Shown as a thumbnail (an SVG too: drawn by <img>, where it runs no script)."""
        return self.mime_type.startswith("image/")

    @property
    def opens_inline(self) -> bool:
        """Shown by the browser when its URL is opened (a raster image); every other file downloads."""
        return self.mime_type in INLINE_TYPES


@keywords_checked("cui.AttachmentRules")
@dataclass(frozen=True)
class AttachmentRules:
    """What the composer accepts: media types (`image/*` takes every image), and sizes.

    The defaults: PNG, JPEG, GIF and WebP images, PDF, CSV, text, Markdown and JSON files; 10 MB a file, 5 files a
    message, 50 MB of files in one conversation.
    """

    _: KW_ONLY
    types: tuple[str, ...] = DEFAULT_TYPES
    max_file_bytes: int = 10 * MB
    max_files: int = 5
    max_conversation_bytes: int = 50 * MB

    def __post_init__(self) -> None:
        where, types = "cui.AttachmentRules", cast(object, self.types)  # (as the app gave it: checked here)
        if isinstance(types, str) or not isinstance(types, (tuple, list, set, frozenset)):
            close = [f'types=("{types}",)'] if isinstance(types, str) else []
            raise invalid_option(where, "types", types, takes=TYPES_TAKE, close=close)
        for each in cast(Iterable[object], types):
            if not isinstance(each, str) or not (_MEDIA_TYPE.fullmatch(each) or _MEDIA_FAMILY.fullmatch(each)):
                close = [f'"{each.strip().lower()}"'] if isinstance(each, str) and each.strip().lower() != each else []
                raise invalid_option(where, "types", each, takes=TYPES_TAKE, close=close)
        object.__setattr__(self, "types", tuple(cast(Iterable[str], types)))  # (frozen: a list given is kept as a tuple)
        for size in ("max_file_bytes", "max_files", "max_conversation_bytes"):
            whole_number(where, size, getattr(self, size), 1, "it takes a whole number of 1 or more")

    @property
    def max_unsent_files(self) -> int:
        """How many uploaded files one owner may have waiting to be sent: two messages' worth (another tab of theirs
        may be writing one too); more is refused, so that uploads never sent cannot pile up."""
        return 2 * self.max_files

    def mime_type_of(self, name: str, given: str = "") -> str:
        """A file's media type: by its name's extension when known, else the one the browser gave if it is one
        type/subtype (its parameters dropped), else application/octet-stream."""
        extension = name.rpartition(".")[2].lower() if "." in name else ""
        given = (given or "").split(";")[0].strip().lower()
        return TYPES_BY_EXTENSION.get(extension) or (given if _MEDIA_TYPE.fullmatch(given) else "application/octet-stream")

    def accepts(self, mime_type: str) -> bool:
        """Whether files of this media type may be attached."""
        family = mime_type.partition("/")[0] + "/*"
        return mime_type in self.types or family in self.types

    def refusal(self, name: str, mime_type: str, size: int, *, held: int = 0, count: int = 0) -> Refusal | None:
        """Why this file is refused (`str()` of it says so in the default words); None when it is accepted. `held`:
        bytes the conversation holds already; `count`: files already attached to the message being written."""
        shown = shown_name(name)
        if not self.accepts(mime_type):
            return Refusal("file_type_refused", {"name": shown})
        if size == 0:
            return Refusal("file_empty", {"name": shown})
        if size > self.max_file_bytes:
            return Refusal("file_too_big", {"name": shown, "size": size, "limit": self.max_file_bytes})
        if count >= self.max_files:
            return Refusal("too_many_files", {"name": shown, "count": self.max_files})
        if held + size > self.max_conversation_bytes:
            return Refusal("conversation_full", {"name": shown, "held": held, "limit": self.max_conversation_bytes})
        return None

    def unsent_refusal(self, name: str, waiting: int) -> Refusal:
        """Why an upload is refused when its owner has too many files waiting to be sent."""
        return Refusal("too_many_unsent", {"name": shown_name(name), "count": waiting})

    def accept_attribute(self) -> str:
        """The `accept` of the file picker: the types and their extensions."""
        extensions = [f".{ext}" for ext, mime in TYPES_BY_EXTENSION.items() if self.accepts(mime)]
        return ",".join([*self.types, *extensions])


def size_text(size: int, words: object = None) -> str:
    """A size as people read it: 34 KB, 12.4 MB (decimal units, as file managers show them), in the words of
    `words` (any object with SIZE_WORDS' names as attributes: cui.Labels), else in English."""

    def said(key: str, **fields: str | int) -> str:
        return fill_template(str(getattr(words, key, None) or SIZE_WORDS[key]), fields)

    if size == 1:
        return said("one_byte", count=1)
    if size < 1000:
        return said("bytes_size", count=size)
    if size < MB:
        return said("kilobytes", size=max(1, round(size / 1000)))
    megabytes = size / MB
    if megabytes >= 100 or megabytes == int(megabytes):
        return said("megabytes", size=f"{megabytes:.0f}")
    return said("megabytes", size=f"{math.floor(megabytes * 10) / 10:.1f}")  # down: 10.04 MB is not "the limit" of 10 MB


def shown_name(name: str, limit: int = 120) -> str:
    """A file name as the copilot names it: printable characters only, on one line, bounded."""
    cleaned = "".join(ch for ch in name if ch.isprintable()).strip() or "file"
    if len(cleaned) <= limit:
        return cleaned
    extension = "." + cleaned.rpartition(".")[2] if "." in cleaned[-10:] else ""  # a shortened name keeps its type
    return cleaned[: limit - 1 - len(extension)] + "…" + extension


def attachment_parts(attachments: Iterable[Attachment]) -> list[ImagePart | DocumentPart]:
    """The media parts that refer to these attachments in a user message (no bytes: a reference each)."""
    parts: list[ImagePart | DocumentPart] = []
    for attachment in attachments:
        source = UrlSource(value=REFERENCE + attachment.id, mime_type=attachment.mime_type)
        metadata = {"filename": attachment.name, "size": attachment.size}
        part_type = ImagePart if attachment.is_image else DocumentPart
        parts.append(part_type(source=source, metadata=metadata))
    return parts


def user_content(text: str, attachments: Sequence[Attachment]) -> str | list[ContentPart]:
    """A user message's content: its text alone, or its text and a part per attachment."""
    if not attachments:
        return text
    return [*([TextPart(text=text)] if text else []), *attachment_parts(attachments)]


def attachments_of(message: Message) -> list[Attachment]:
    """The attachments a user message refers to, in order."""
    if not isinstance(message, UserMessage) or isinstance(message.content, str):
        return []
    found: list[Attachment] = []
    for part in message.content:
        attachment = _referred(part)
        if attachment is not None:
            found.append(attachment)
    return found


async def with_attachment_bytes(messages: list[Message], fetch: AttachmentBytes | None) -> list[Message]:
    """The messages as the agent gets them: each reference replaced by the file's bytes, after a text part naming it.
    A file whose bytes are gone (deleted, or no `fetch`) is named as unavailable instead."""
    wanted = [attachment.id for message in messages for attachment in attachments_of(message)]
    if not wanted:
        return messages
    held = await fetch(wanted) if fetch is not None else {}
    return [
        _inlined(message, held) if isinstance(message, UserMessage) and attachments_of(message) else message
        for message in messages
    ]


def attachment_label(attachment: Attachment) -> str:
    """The text part that names a file before its bytes, for the model: `[Attached file: orders.csv (text/csv, 68 bytes)]`."""
    return f"[Attached file: {attachment.name} ({attachment.mime_type}, {size_text(attachment.size)})]"


def labelled_file(text: str) -> tuple[str, str] | None:
    """The (name, media type) a label from attachment_label() names; None for any other text."""
    match = _LABEL.match(text)
    return (match["name"], match["mime"]) if match else None


def _inlined(message: UserMessage, held: dict[str, bytes]) -> UserMessage:
    if isinstance(message.content, str):
        return message
    parts: list[ContentPart] = []
    for part in message.content:
        attachment = _referred(part)
        if attachment is None or isinstance(part, TextPart):
            parts.append(part)
            continue
        data = held.get(attachment.id)
        if data is None:
            parts.append(TextPart(text=f"[Attached file {attachment.name} ({attachment.mime_type}) is no longer available.]"))
            continue
        label = attachment_label(attachment)
        source = DataSource(value=base64.b64encode(data).decode("ascii"), mime_type=attachment.mime_type)
        parts += [TextPart(text=label), type(part)(source=source, metadata={"filename": attachment.name})]
    return message.model_copy(update={"content": parts})


def _referred(part: ContentPart) -> Attachment | None:
    source = None if isinstance(part, TextPart) else part.source
    if not isinstance(source, UrlSource) or not source.value.startswith(REFERENCE):
        return None
    metadata: JSONObject = part.metadata or {}
    name = str(metadata.get("filename") or "file")
    size = metadata.get("size")
    return Attachment(
        id=source.value[len(REFERENCE) :],
        name=name,
        mime_type=source.mime_type or "application/octet-stream",
        size=size if isinstance(size, int) else 0,
    )
