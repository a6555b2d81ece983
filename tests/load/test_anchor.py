"""The load benchmark's anchor (bench/anchor_app: a plain Reflex chat app) and what `bench.load` says of the copilot
against it.

The anchor app's backend is served by `reflex run --env prod --backend-only` on one worker (the simulated people
speak its websocket; no page is needed), its demo model saying a known reply, sampled by the profiler as `--profile`
arms it. Three people say "hello" four times at once (bench/_anchor_person.py): each gets every reply whole, timed
from Enter, in a conversation of their own; a frame with another person's message counts as crossed; the profiler
counts the worker's CPU in the layers it went through. And the comparison prints the copilot's figures as ratios to
the anchor's, each with its goal.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench._anchor_person import CHAT_STATE, MESSAGES, AnchorPerson
from bench._layers import WRITE_EVERY, layer_shares
from bench._person import HELLO, Turn, marker, new_run
from bench._reflex_socket import Update
from bench._served import answers
from bench.load import ANCHOR_APP, PROFILING, Cell, print_against_anchor, print_cell, served_in_turn
from tests._processes import free_port, stop_group

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = 3
REPLY = "The anchor answers with these words, one at a time, at the pace of the demo model."
START_TIMEOUT = 120  # seconds for the backend to answer on a busy machine


@dataclass(frozen=True)
class AnchorBackend:
    url: str
    samples: Path  # where its profiler writes


@pytest.fixture(scope="module")
def anchor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AnchorBackend]:
    folder = tmp_path_factory.mktemp("anchor")
    samples = folder / "profile"
    samples.mkdir()
    port = free_port()
    bin_dir = Path(sys.executable).parent
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith(("COPILOT_", "REFLEX_"))},
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join([str(PROFILING), str(ROOT)]),
        "REFLEX_WEB_WORKDIR": str(folder / "web"),
        "REFLEX_STATES_WORKDIR": str(folder / "states"),
        "REFLEX_TELEMETRY_ENABLED": "false",
        "GRANIAN_WORKERS": "1",
        "LOAD_PROFILE_DIR": str(samples),
        "ANCHOR_REPLY": REPLY,
    }
    command = [str(bin_dir / "reflex"), "run", "--env", "prod", "--backend-only", "--backend-port", str(port)]
    with (folder / "reflex.log").open("w") as log:
        server = subprocess.Popen(
            command, cwd=ANCHOR_APP, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )  # fmt: skip
    try:
        _wait_until_answered(f"http://127.0.0.1:{port}/ping", server, folder / "reflex.log")
        yield AnchorBackend(f"http://127.0.0.1:{port}", samples)
    finally:
        stop_group(server)


@pytest.fixture(scope="module")
def crowd(anchor: AnchorBackend) -> list[AnchorPerson]:
    """Three people who said "hello" four times at once."""
    run = new_run()
    people = [AnchorPerson(anchor.url, marker(run, number), random.Random(number)) for number in range(PEOPLE)]

    async def visit(person: AnchorPerson) -> None:
        await person.connect()
        await person.do_flow(HELLO)

    async def everyone() -> None:
        try:
            await asyncio.gather(*(visit(person) for person in people))
        finally:
            await asyncio.gather(*(person.close() for person in people))

    asyncio.run(everyone())
    return people


def test_every_person_gets_each_reply_whole_timed_from_enter(crowd: list[AnchorPerson]):
    for person in crowd:
        assert not person.problem, f"{person.marker}: {person.problem}"
        assert person.replies == [REPLY] * len(HELLO)
        for turn in person.turns:
            assert turn.first_piece is not None and turn.done is not None
            assert 0 < turn.first_piece < turn.done


def test_each_person_sees_only_their_own_conversation(crowd: list[AnchorPerson]):
    for person in crowd:
        assert person.crossed == 0
        said = [message["content"] for message in person.messages if message["role"] == "user"]
        assert said == [f"hello ({person.marker})"] * len(HELLO)


def test_a_frame_with_another_persons_message_counts_as_crossed(crowd: list[AnchorPerson]):
    person, other = crowd[0], crowd[1]
    foreign = [*person.messages, {"role": "user", "content": f"hello ({other.marker})"}]
    before = person.crossed
    person.read(Update(time.perf_counter(), "", {f"state.{CHAT_STATE}": {MESSAGES: foreign}}))
    assert person.crossed == before + 1


def test_the_profile_counts_the_workers_cpu_in_the_layers_it_went_through(crowd: list[AnchorPerson], anchor: AnchorBackend):
    assert crowd
    time.sleep(2 * WRITE_EVERY)  # (the last samples written)
    shares = layer_shares(anchor.samples)
    assert shares["pydantic-ai"] > 0, shares
    assert shares["Reflex: events, state, deltas"] > 0, shares


def test_the_copilot_is_reported_against_the_anchor_with_each_goal(capsys: pytest.CaptureFixture[str]):
    copilot = Cell(1, 10, flow="hello", cpu=6.0, turns=[Turn("hello", 0.3, 2.2)] * 2)  # 3 s of CPU per turn
    plain = Cell(1, 10, flow="hello", anchor=True, cpu=4.0, turns=[Turn("hello", 0.05, 2.0)] * 2)
    print_against_anchor(copilot, plain)
    assert capsys.readouterr().out.splitlines() == [
        "load_1w_10p_hello_cpu_per_turn_vs_anchor: 1.50x (goal: at most 1.3x)",
        "load_1w_10p_hello_first_piece_p95_over_anchor: +250 ms (goal: at most +100 ms)",
        "load_1w_10p_hello_reply_done_p95_vs_anchor: 1.10x (goal: at most 1.1x)",
    ]


def test_each_app_is_served_in_the_order_abba_and_the_other_way_round_in_the_next_cell():
    assert served_in_turn(0, 2, with_anchor=True) == [False, True, True, False]  # copilot, anchor, anchor, copilot
    assert served_in_turn(1, 2, with_anchor=True) == [True, False, False, True]
    assert served_in_turn(0, 1, with_anchor=True) == [False, True]
    assert served_in_turn(0, 3, with_anchor=False) == [False, False, False]  # the demo flow: the copilot alone


def test_two_rounds_of_a_cell_count_as_one_with_each_rounds_cpu_shown(capsys: pytest.CaptureFixture[str]):
    fast = Cell(1, 10, flow="hello", cpu=4.0, busy=10, turns=[Turn("hello", 0.1, 2.0)] * 2, by_step=[[], []], rounds=[2.0])
    slow = Cell(1, 10, flow="hello", cpu=8.0, busy=10, turns=[Turn("hello", 0.5, 2.4)] * 2, by_step=[[], []], rounds=[4.0])

    both = fast.joined(slow)

    print_cell(both)
    said = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert said["load_1w_10p_hello_server_cpu_per_turn"] == "3000 ms (4 turns)"  # 12 s of CPU over 4 turns
    assert said["load_1w_10p_hello_server_cpu_per_turn_rounds"] == "2000 / 4000 ms"
    assert said["load_1w_10p_hello_first_piece_p95"] == "500 ms"


def _wait_until_answered(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the anchor app exited (code {server.returncode}):\n{log.read_text()[-3000:]}")
        if answers(url):
            return
        time.sleep(0.5)
    pytest.fail(f"the anchor app did not answer within {START_TIMEOUT} s:\n{log.read_text()[-3000:]}")
