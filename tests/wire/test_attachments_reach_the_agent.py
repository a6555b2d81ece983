"""Files a person attaches reach the agent as AG-UI binary input content: media parts with the bytes inline.

The thread refers to an attachment; when the agent runs, the loop puts the bytes in (an ImagePart or a DocumentPart
with a base64 data source, after a text part naming the file). Over HTTP to a pydantic-ai AG-UI server, and in
process to the built-in agent with the demo model, which says what it received.
"""

from __future__ import annotations

import asyncio
import base64
import json

from pydantic_ai.messages import BinaryContent, ModelRequest, UserPromptPart

from copilot_ui.core import Attachment, RunLoop, Thread, attachments_of
from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.server import builtin_agent, demo_model

from ..attachment_files import ORDERS_CSV as CSV
from ..attachment_files import png
from ._peer import Peer

TURN_TIMEOUT = 20.0


def kept(files: dict[str, tuple[str, str, bytes]]) -> tuple[tuple[Attachment, ...], object]:
    """Attachments as the copilot keeps them (id → name, type, bytes), and the loop's way to their bytes."""
    attachments = tuple(Attachment(key, name, mime, len(data)) for key, (name, mime, data) in files.items())

    async def attachment_bytes(ids: list[str]) -> dict[str, bytes]:
        return {key: files[key][2] for key in ids if key in files}

    return attachments, attachment_bytes


async def test_an_http_agent_sends_the_files_as_media_parts_with_their_bytes(peer: Peer):
    image = png()
    attachments, attachment_bytes = kept({"a1": ("chart.png", "image/png", image), "a2": ("orders.csv", "text/csv", CSV)})
    thread = Thread()
    loop = RunLoop(peer.agent(), attachment_bytes=attachment_bytes)

    outcome = await asyncio.wait_for(loop.send(thread, "what do you see?", attachments=attachments), TURN_TIMEOUT)

    assert outcome.status == "done"
    (request,) = [json.loads(request.body) for request in peer.requests if request.method == "POST"]
    content = request["messages"][0]["content"]
    assert [part["type"] for part in content] == ["text", "text", "image", "text", "document"]
    assert content[0]["text"] == "what do you see?"
    assert content[1]["text"] == "[Attached file: chart.png (image/png, 34 KB)]"
    assert content[2]["source"] == {"type": "data", "value": base64.b64encode(image).decode(), "mimeType": "image/png"}
    assert content[2]["metadata"] == {"filename": "chart.png"}
    assert base64.b64decode(content[4]["source"]["value"]) == CSV
    # pydantic-ai's adapter gave its model the bytes
    (prompt,) = [part for part in peer.model.seen[0][-1].parts if isinstance(part, UserPromptPart)]
    binaries = [part for part in prompt.content if isinstance(part, BinaryContent)]
    assert [(part.media_type, part.data) for part in binaries] == [("image/png", image), ("text/csv", CSV)]


async def test_the_thread_keeps_a_reference_not_the_bytes():
    attachments, _ = kept({"a1": ("chart.png", "image/png", png())})
    thread = Thread()
    message = thread.add_user_message("look", "m1", attachments)

    stored = json.dumps(thread.to_json())
    assert "copilot-attachment:a1" in stored
    assert len(stored) < 1000
    assert attachments_of(message) == list(attachments)


async def test_the_demo_model_says_what_it_received():
    image = png()
    attachments, attachment_bytes = kept({"a1": ("chart.png", "image/png", image), "a2": ("orders.csv", "text/csv", CSV)})
    agent = builtin_agent(demo_model(0, script=DASHBOARD), tools=demo_backend_tools(0), state_type=AgentReport)
    thread = Thread()
    loop = RunLoop(agent, attachment_bytes=attachment_bytes)

    outcome = await asyncio.wait_for(loop.send(thread, "", attachments=attachments), TURN_TIMEOUT)

    assert outcome.status == "done"
    assert thread.messages[-1].content == "I got a PNG image of 34 KB. I got a CSV file, orders.csv, 3 rows."


async def test_a_file_whose_bytes_are_gone_is_named_as_unavailable(peer: Peer):
    attachments, _ = kept({"gone": ("old.pdf", "application/pdf", b"%PDF")})

    async def nothing(_ids: list[str]) -> dict[str, bytes]:
        return {}

    thread = Thread()
    loop = RunLoop(peer.agent(), attachment_bytes=nothing)
    await asyncio.wait_for(loop.send(thread, "and this?", attachments=attachments), TURN_TIMEOUT)

    (request,) = [json.loads(request.body) for request in peer.requests if request.method == "POST"]
    content = request["messages"][0]["content"]
    assert [part["type"] for part in content] == ["text", "text"]
    assert content[1]["text"] == "[Attached file old.pdf (application/pdf) is no longer available.]"


def test_the_demo_model_reads_a_csv_without_its_header():
    from copilot_ui.server._demo_attachments import attachments_said

    request = ModelRequest(
        parts=[
            UserPromptPart(
                content=["[Attached file: a.csv (text/csv, 5 bytes)]", BinaryContent(b"x\n1\n", media_type="text/csv")]
            )
        ]
    )
    assert attachments_said([request]) == "I got a CSV file, a.csv, 1 row."


async def test_after_a_run_the_thread_still_holds_references_only(peer: Peer):
    image = png()
    attachments, attachment_bytes = kept({"a1": ("chart.png", "image/png", image)})
    agent = builtin_agent(demo_model(0, script=DASHBOARD), tools=demo_backend_tools(0), state_type=AgentReport)
    for each in (peer.agent(), agent):
        thread = Thread()
        await asyncio.wait_for(RunLoop(each, attachment_bytes=attachment_bytes).send(thread, "look", attachments=attachments), 20)
        kept_json = json.dumps(thread.to_json())
        assert base64.b64encode(image).decode()[:200] not in kept_json
        assert attachments_of(thread.messages[0]) == list(attachments)
