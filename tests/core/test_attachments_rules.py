"""What the composer accepts, the reason a person reads when a file is refused, and files kept through an edit."""

from __future__ import annotations

from copilot_ui.core import Attachment, AttachmentRules, QueuedMessage, Thread, attachments_of, size_text
from copilot_ui.core._attachments import MB


def test_a_file_of_a_type_not_accepted_is_refused_by_name():
    rules = AttachmentRules()
    mime = rules.mime_type_of("report.exe", "application/x-msdownload")
    assert str(rules.refusal("report.exe", mime, 2_000)) == "report.exe: this type of file is not accepted"


def test_a_file_over_the_size_limit_is_refused_with_its_size_and_the_limit():
    rules = AttachmentRules()
    assert str(rules.refusal("big.png", "image/png", 12_400_000)) == "big.png is 12.4 MB; the limit is 10 MB"


def test_the_default_types_are_images_pdf_and_data_files():
    rules = AttachmentRules()
    names = ["a.png", "a.JPG", "a.gif", "a.webp", "a.pdf", "a.csv", "a.txt", "a.md", "a.json"]
    assert all(rules.refusal(name, rules.mime_type_of(name), 10) is None for name in names)
    assert not rules.accepts(rules.mime_type_of("drawing.svg"))  # an app may add image/svg+xml


def test_an_app_sets_its_own_types_and_limits():
    rules = AttachmentRules(types=("image/*",), max_file_bytes=1 * MB, max_files=2, max_conversation_bytes=3 * MB)
    assert rules.accepts("image/svg+xml")
    assert str(rules.refusal("a.csv", "text/csv", 10)) == "a.csv: this type of file is not accepted"
    assert str(rules.refusal("c.png", "image/png", 10, count=2)) == "c.png: a message takes at most 2 files"
    held = rules.refusal("d.png", "image/png", 900_000, held=2_500_000)
    assert str(held) == "d.png: this conversation holds 2.5 MB of files; the limit is 3 MB"


def test_a_name_is_shown_as_printable_text():
    rules = AttachmentRules()
    refusal = rules.refusal("evil\u202e\nname.exe", "application/octet-stream", 1)
    assert str(refusal) == "evilname.exe: this type of file is not accepted"


def test_a_refusal_is_worded_in_the_apps_labels_with_its_fields():
    class French:
        file_too_big = "{name} pèse {size} ; la limite est de {limit}"

    refusal = AttachmentRules().refusal("{size}.png", "image/png", 12_400_000)

    assert refusal is not None and refusal.key == "file_too_big"
    assert refusal.worded(French()) == "{size}.png pèse 12.4 MB ; la limite est de 10 MB"  # a name's braces stay
    assert refusal.worded(object()) == "{size}.png is 12.4 MB; the limit is 10 MB"  # a label it lacks: the default


def test_sizes_read_as_people_read_them():
    assert [size_text(n) for n in (1, 999, 34_000, 1_000_000, 12_400_000)] == ["1 byte", "999 bytes", "34 KB", "1 MB", "12.4 MB"]


async def test_an_edited_message_keeps_its_files_and_a_queued_one_brings_them():
    from copilot_ui.agents import scripts as s

    from .conftest import make_loop

    chart = Attachment("a1", "chart.png", "image/png", 34_000)
    loop, agent, _ = make_loop(s.text_reply("seen"), s.text_reply("seen again"))
    thread = Thread()
    await loop.send(thread, "look", attachments=(chart,))

    await loop.edit(thread, thread.messages[0].id, "look closer")

    assert attachments_of(thread.messages[0]) == [chart]
    assert [part.type for part in agent.inputs[1].messages[0].content] == ["text", "text"]  # no bytes here: named gone
    saved = Thread()
    saved.queued = [QueuedMessage("q1", "and this", (chart,))]
    saved.restore_bookkeeping(saved.bookkeeping_json())
    assert saved.queued[0].attachments == (chart,)


def test_a_media_type_given_by_the_browser_must_be_one_type_and_subtype():
    rules = AttachmentRules(types=("image/*",))

    smuggled = rules.mime_type_of("picture", "image/png, text/html")

    assert smuggled == "application/octet-stream"
    assert str(rules.refusal("picture", smuggled, 10)) == "picture: this type of file is not accepted"
    assert rules.mime_type_of("picture", "Image/PNG; charset=x") == "image/png"
    assert rules.mime_type_of("picture", "image/png\r\nx-evil: 1") == "application/octet-stream"
