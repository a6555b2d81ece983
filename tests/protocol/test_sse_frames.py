"""Server-sent events as they arrive over HTTP, in pieces of any size, to the data of each frame."""

from __future__ import annotations

import random

import pytest

from copilot_ui.protocol import FrameTooLarge, SSEFrames

STREAM = (
    'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\r\n'
    "\r\n"
    ": keep-alive\r\n"
    "\r\n"
    'data: {"type":"TEXT_MESSAGE_CONTENT",\n'
    'data: "messageId":"m1","delta":"é ✓"}\n'
    "\n"
    ":\r"
    "\r"
    'data:{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}\r'
    "\r"
)
FRAMES = [
    '{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}',
    '{"type":"TEXT_MESSAGE_CONTENT",\n"messageId":"m1","delta":"é ✓"}',
    '{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}',
]


def frames_of(pieces, **options):
    frames = SSEFrames(**options)
    received = []
    for piece in pieces:
        received.extend(frames.feed(piece))
    received.extend(frames.close())
    return received


def test_whole_stream_gives_the_data_of_each_frame():
    assert frames_of([STREAM]) == FRAMES


def test_stream_cut_anywhere_in_two_gives_the_same_frames():
    for cut in range(1, len(STREAM)):
        assert frames_of([STREAM[:cut], STREAM[cut:]]) == FRAMES, f"cut after {STREAM[:cut]!r}"


def test_stream_cut_at_every_carriage_return_gives_the_same_frames():
    pieces = STREAM.replace("\r", "\r\x00").split("\x00")  # each piece but the last ends with a lone \r
    assert all(piece.endswith("\r") for piece in pieces[:-1])
    assert frames_of(pieces) == FRAMES


def test_stream_in_random_pieces_gives_the_same_frames():
    rng = random.Random(8895)
    for _ in range(200):
        cuts = sorted(rng.sample(range(1, len(STREAM)), rng.randint(1, 20)))
        pieces = [STREAM[start:end] for start, end in zip([0, *cuts], [*cuts, len(STREAM)], strict=True)]
        assert frames_of(pieces) == FRAMES


def test_stream_one_character_at_a_time_gives_the_same_frames():
    assert frames_of(list(STREAM)) == FRAMES


def test_comments_keep_alives_and_other_fields_give_no_frames():
    assert frames_of([": ping\n\n", ":\n\n", "event: message\nid: 7\nretry: 100\n\n", "\n\n"]) == []


def test_keep_alives_over_a_long_wait_are_not_a_frame_growing_too_large():
    frames = SSEFrames(max_frame_chars=100)
    for _ in range(1000):
        assert list(frames.feed(": keep-alive\n\n")) == []
    assert list(frames.feed("data: 1\n\n")) == ["1"]


def test_frame_growing_past_the_limit_without_a_newline_is_too_large():
    with pytest.raises(FrameTooLarge) as caught:
        frames_of(["data: " + "x" * 50] * 1000, max_frame_chars=1000)
    assert caught.value.limit == 1000


def test_frame_of_many_lines_growing_past_the_limit_is_too_large():
    with pytest.raises(FrameTooLarge):
        frames_of(["data: " + "x" * 50 + "\n"] * 1000, max_frame_chars=1000)


def test_frames_each_under_the_limit_are_fine_however_many():
    frame = "data: " + "x" * 500 + "\n\n"
    assert frames_of([frame] * 100, max_frame_chars=1000) == ["x" * 500] * 100


def test_close_gives_a_last_frame_the_stream_did_not_end_with_a_blank_line():
    assert frames_of(['data: {"a":1}\n\ndata: {"b":2}']) == ['{"a":1}', '{"b":2}']
    assert frames_of(['data: {"b":2}\n']) == ['{"b":2}']
    assert frames_of(['data: {"b":2}\r']) == ['{"b":2}']
