"""The load benchmark's driver (bench/load.py) tells the truth about what people get.

Three simulated people (bench/_person.py) do the demo flow at once over Reflex's own websocket, on
the demo app served in production mode on one worker: "hello", "show orders from Berlin", "refund
order 1042" approved, "hello". Each must get through it, see only their own conversation and lose
nothing; and the checks (bench/_witness.py) must count what would be wrong: a frame carrying another
person's marker, a piece of a text their conversation never had, a gap in a reply's pieces, a reply
that differs from the one the server kept.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections.abc import Iterator

import pytest

from bench._person import FLOW, Person, marker, new_run
from bench._reflex_socket import NAMESPACE, Update, parse_update
from bench._witness import Witness, crossed
from tests.browser.conftest import ServedApp, _served

PEOPLE = 3


@pytest.fixture(scope="module")
def load_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    """The demo app on one worker, in production mode, its demo orders in a database of its own."""
    orders = tmp_path_factory.mktemp("load-orders") / "demo.db"
    with _served(tmp_path_factory, "load-app", ".web-test-load", {"DEMO_DATABASE_URL": f"sqlite:///{orders}"}) as served:
        yield served


@pytest.fixture(scope="module")
def crowd(load_app: ServedApp) -> list[Person]:
    """Three people who did the flow at once, then asked for their whole replies, as a reload would."""
    run = new_run()
    people = [Person(load_app.url, marker(run, number), random.Random(number)) for number in range(PEOPLE)]

    async def visit(person: Person) -> None:
        await person.connect()
        await person.do_flow(FLOW)

    async def everyone() -> None:
        try:
            await asyncio.gather(*(visit(person) for person in people))
            await asyncio.gather(*(person.check_texts() for person in people))
        finally:
            await asyncio.gather(*(person.close() for person in people))

    asyncio.run(everyone())
    return people


def test_every_person_gets_through_the_demo_flow(crowd: list[Person]):
    for person in crowd:
        assert not person.problem, f"{person.marker}: {person.problem}"
        assert [turn.message for turn in person.turns] == [step.text for step in FLOW]
        assert all(turn.first_piece is not None and turn.done is not None for turn in person.turns)
        refund = person.turns[2]
        assert refund.approve_to_result is not None, "the refund's result never came"
        assert len(person.witness.streamed_messages()) == len(FLOW), "a reply for each message"


def test_each_person_sees_only_their_own_conversation(crowd: list[Person]):
    witnesses = [person.witness for person in crowd]
    assert crossed(witnesses) == [0] * PEOPLE
    assert len({witness.thread_id for witness in witnesses}) == PEOPLE, "each person has a conversation of their own"
    for witness in witnesses:
        messages = [text.text for tid, text in witness.texts.items() if witness.marker in text.text]
        assert len(messages) == len(FLOW), f"{witness.marker} did not get their own messages back: {messages}"


def test_nothing_is_lost(crowd: list[Person]):
    for person in crowd:
        witness = person.witness
        assert witness.handed_over is not None and set(witness.streamed_messages()) <= set(witness.handed_over)
        assert witness.lost() == 0, f"{person.marker} lost pieces"


def test_a_frame_with_another_persons_message_counts_as_crossed(crowd: list[Person]):
    first, second = (copy.deepcopy(person.witness) for person in crowd[:2])
    own_message = next(tid for tid, text in first.texts.items() if first.marker in text.text)
    first.read(_frame(f"window.__cuiS?.({json.dumps({own_message: [0, f'hello ({second.marker})']})})"))
    assert crossed([first, second, crowd[2].witness]) == [1, 0, 0]


def test_a_piece_of_a_reply_the_conversation_never_had_counts_as_crossed(crowd: list[Person]):
    first, second = (copy.deepcopy(person.witness) for person in crowd[:2])
    others = next(tid for tid in second.streamed_messages() if tid not in first.item_ids)
    first.read(_frame(f"window.__cuiA?.({json.dumps(others)},0,{json.dumps('Hello!')})"))
    assert crossed([first, second, crowd[2].witness]) == [1, 0, 0]


def test_a_gap_in_a_replys_pieces_counts_as_lost(crowd: list[Person]):
    witness = _before_the_check(crowd[0].witness)
    reply = witness.streamed_messages()[-1]
    skipped = witness.texts[reply].seq + 2  # the next piece never came
    witness.read(_frame(f"window.__cuiA?.({json.dumps(reply)},{skipped},{json.dumps(' more')})"))
    witness.handed_over = dict(crowd[0].witness.handed_over or {})
    witness.handed_over[reply] = (skipped, witness.texts[reply].text.replace(" more", " missed more"))
    assert witness.lost() == 1


def test_a_reply_that_differs_from_the_one_kept_counts_as_lost(crowd: list[Person]):
    witness = copy.deepcopy(crowd[0].witness)
    assert witness.handed_over is not None
    reply = witness.streamed_messages()[0]
    seq, text = witness.handed_over[reply]
    witness.handed_over[reply] = (seq, text + " and a word the person never got")
    assert witness.lost() == 1
    witness.handed_over[reply] = (seq + 2, text)  # two pieces more than the person got
    assert witness.lost() == 2


def _before_the_check(witness: Witness) -> Witness:
    """A copy of what the person had received before asking for the whole replies."""
    copied = copy.deepcopy(witness)
    copied.handed_over = None
    return copied


def _frame(script: str) -> Update:
    """A frame as the backend sends a `_call_script` event."""
    event = {"name": "_call_script", "router_data": {}, "payload": {"javascript_code": script, "callback": None}}
    update = parse_update(f"42{NAMESPACE}," + json.dumps(["event", {"events": [event]}]), 0.0)
    assert update is not None
    return update
