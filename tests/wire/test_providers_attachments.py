"""The files a person attaches reach a real provider's wire through the built-in agent: the image as the image
itself (base64), a CSV as its text, on OpenAI's two APIs, Anthropic's and an OpenAI-compatible server (aimock)."""

from __future__ import annotations

import asyncio
import base64
import json

from copilot_ui.core import Attachment

from ..attachment_files import ORDERS_CSV, png
from ._aimock import Aimock, text
from ._providers import TURN_TIMEOUT, Provider, Session

CHAT_COMPLETIONS = ("openai-chat", "compatible")


async def test_an_image_and_a_csv_reach_the_model(aimock: Aimock, provider: Provider):
    image = png()
    files = {"a1": image, "a2": ORDERS_CSV}
    attachments = (
        Attachment("a1", "chart.png", "image/png", len(image)),
        Attachment("a2", "orders.csv", "text/csv", len(ORDERS_CSV)),
    )

    async def attachment_bytes(ids: list[str]) -> dict[str, bytes]:
        return {key: files[key] for key in ids}

    aimock.serve(text("what do these show", "A grey square, and three orders."))
    session = Session()
    session.loop.attachment_bytes = attachment_bytes

    outcome = await asyncio.wait_for(
        session.loop.send(session.thread, "what do these show?", attachments=attachments), TURN_TIMEOUT
    )

    assert outcome.status == "done", session.errors()
    assert session.replies() == ["A grey square, and three orders."]
    sent = json.dumps(aimock.requests()[-1]["body"])
    assert "1043,Paris,80.00" in sent  # the CSV, as text the model reads (Anthropic's API takes no CSV document)
    assert "[Attached file: chart.png (image/png, 34 KB)]" in sent  # each file named
    assert "[Attached file: orders.csv (text/csv, 68 bytes)]" in sent
    if provider.id in CHAT_COMPLETIONS:  # aimock's journal keeps the text parts only of Responses and Messages requests
        assert f"data:image/png;base64,{base64.b64encode(image).decode()}" in sent  # the image itself
