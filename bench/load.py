"""Many people at once: N simulated people over Reflex's own websocket and one real Chromium tab, on one worker and
on two sharing Redis.

The demo app in production mode on the demo model (its human pace: a word every 20 ms), served
afresh for each cell of the matrix: N = 10, 25, 50, 100 people, on one worker (its store in SQLite)
and on two workers sharing Redis (`REDIS_URL`, `GRANIAN_WORKERS=2`), their conversations and the
demo's orders in PostgreSQL (both services started here, as the tests start them). Each simulated
person (bench/_person.py) is a tab of its own speaking Reflex's protocol over a websocket, as the
browser does; they arrive within a second (RAMP) and each does the demo flow: "hello", "show orders
from Berlin", "refund order 1042" approved, "hello", acting as soon as they can (0–0.2 s before
each message and before Approve). That is the pace of the measurement in the issue "Many people at
once", whose figures on the same code this reproduces (N = 50: p95 first piece about 0.85–1 s).
Two warm-up people per worker go through the flow first, not counted. A real tab
(bench/_real_tab.py) does the same flow beside them, then says "hello" again until they are done.

Figures, per cell (`load_<workers>w_<N>p_...`):
- first_piece_p50 / _p95: Enter → the first streamed piece (a reply's words or a card's
  arguments), over every turn of every person; first_shown_p50 / _p95: Enter → that piece on
  the page (the copilot's page shows a text once the item that holds it is listed too: whichever
  of the two came last; the anchor's text comes in its message);
- reply_done_p95: Enter → the end of the run that answers (Approve → the end, for the refund);
  first_piece_step<N> and reply_done_step<N> (p50 / p95): the same for each step of the flow;
- approve_to_result_p95: Approve → the card's result, as the person's tab receives it;
- server_cpu_per_turn: CPU time of all the app's processes (read from /proc) from the first
  person's arrival to the last one's end, over the turns done (the tab's included); server_cpu:
  the same over that time, in % of one core (the machine has two); services_cpu_per_turn (two
  workers): Redis's and PostgreSQL's, the same way; agent_cpu_per_turn (`--remote-agent`): the
  agent's own process, the same way;
- memory_per_session: growth of the app's resident memory (all its processes) from before the
  people arrive to when they are all done, over the sessions opened (theirs and the tab's);
  memory_kept_per_session: the same, SETTLE seconds after every session closed;
- lost: pieces of a reply a person never received; crossed: frames that carried anything of
  another person's conversation (bench/_witness.py); incomplete: flows that did not complete.
  All three must be 0: the benchmark fails otherwise (after printing every figure);
- tab_first_text_p50 / _max: the real tab's Enter → first words of a "hello" reply on screen (with
  `--flow hello`, a real tab on each app);
- driver_lag_p95 and driver_cpu: how late this process's own event loop ran (the people share it),
  and the CPU it took; machine_cpu: what every process on the machine took meanwhile (the driver,
  Chromium, and whatever else runs there share the cores with the server: when it nears 200 %, the
  server waited for a core, and its figures say so).

The whole matrix takes about 7 minutes on a 2-core machine (the app is built once, served eight
times). `python -m bench.load --quick` runs N = 10 and 50 on one worker (about a minute);
`--people 10,25 --workers 2` (or LOAD_PEOPLE and LOAD_WORKERS in the environment, for `make bench`)
choose the cells. With `--remote-agent` (or LOAD_REMOTE_AGENT=1) the demo's agent is an AG-UI
server of its own (bench/_demo_agent.py: the same built-in agent, demo model, tools and shared
state) and the app talks to it over HTTP as to any remote agent; its figures are named
`load_<workers>w_<N>p_remote_agent_...`.

The anchor (`--flow hello`, or LOAD_FLOW=hello): each person says "hello" four times, and each cell is
measured on the copilot and on a plain Reflex chat app written the way Reflex users write one
(bench/anchor_app: an rx.State with the messages, an async-generator handler streaming the same
pydantic-ai Agent on the same demo model, a yield at most every 40 ms), served the same way, with
the same people at the same pace. Each app is measured `--rounds` times (default 2), in the order
copilot, anchor, anchor, copilot (the other way round in every other cell), and each app's rounds
count as one cell: the machine's speed drifts within minutes, and this order takes the drift off
the ratios (`..._cpu_per_turn_rounds` shows each round's figure). The anchor's model
says the words the copilot's said in the first cell (`reply_chars_p50` shows both), so that both
stream the same pieces. A real tab says "hello" on each app beside the people, timed on screen. The
anchor's figures are named `anchor_<workers>w_<N>p_hello_...`, and three lines compare, each with
the goal of the issue "A turn costs what Reflex costs": `..._cpu_per_turn_vs_anchor` (a ratio),
`..._first_piece_p95_over_anchor` (a difference) and `..._reply_done_p95_vs_anchor` (a ratio); two
more compare what a person sees: `..._first_shown_p95_over_anchor` (the people's first piece on the
page) and `..._tab_first_text_p50_over_anchor` (the real tabs').

With `--profile` the app's workers are sampled (bench/_layers.py) and each cell prints its CPU per
turn by layer (`..._profile_<layer>`): Reflex, the transport, pydantic-ai, the copilot's own layers,
the event loop, and what the other threads run (the store's writer, Reflex's, the server's I/O).
It also prints where a message's first piece waited, in wall time (bench/_timeline.py), p50 and p95:
`..._wait_app_set_up` (from the message's arrival to the app's call of pydantic-ai's Agent),
`..._wait_run_set_up` (pydantic-ai setting the run up), `..._wait_model_words` (from there to the
model's first words) and `..._wait_words_to_frame` (from those words to the frame that carries them);
`..._gc_pause_per_turn` and `..._gc_longest_pause`, the garbage collector's stops of a worker; and
`..._loop_iterations_per_turn` (the event loop's iterations that ran callbacks, with their mean
callbacks and time) and `..._loop_long_iterations_per_turn` (those of 4 ms or more, which hold up every
message waiting on the loop).

Run from the project root: .venv/bin/python -m bench.load
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from playwright.async_api import Browser, async_playwright

from bench._anchor_person import AnchorPerson
from bench._layers import WRITE_EVERY, layer_shares
from bench._person import FLOW, HELLO, Person, Step, Turn, marker, new_run
from bench._real_tab import TabFigures, tab_flow
from bench._served import ROOT, WORK, AgentProcess, ServedApp, stopped_on_sigterm
from bench._timeline import LONG_ITERATION, SUMMED, stage_waits, timeline
from bench._usage import Processes, machine_cpu
from bench._witness import crossed
from tests._processes import CHROMIUM_ARGS
from tests.services import PostgresServer, ServiceUnavailable, running_postgres, running_redis

PEOPLE = (10, 25, 50, 100)
WORKERS = (1, 2)
QUICK_PEOPLE = (10, 50)
ROUNDS = 2  # servings of each app per cell with the anchor (ABBA: the machine's drift leaves the ratio)
RAMP = 1.0  # seconds over which the people arrive
WARM_UP = 2  # people per worker who go through the flow first, not counted (each worker's first turns cost more)
SETTLE = 3.0  # seconds after the sessions closed before the memory they kept is read
LAG_TICK = 0.05  # seconds between the driver's own lag samples
CHROMIUM = Path("/usr/bin/chromium")
MB = 1024 * 1024
FLOWS = {"demo": FLOW, "hello": HELLO}
ANCHOR_APP = Path(__file__).parent / "anchor_app"  # the plain Reflex chat app the copilot is measured against
ANCHOR_WEB = WORK / "anchor-web"
PROFILING = Path(__file__).parent / "_profiling"  # first on a profiled app's PYTHONPATH: its sitecustomize samples it
# The goals against the anchor (issue "A turn costs what Reflex costs"), same flow, same cell:
CPU_RATIO_GOAL = 1.3  # CPU per turn, at most this times the anchor's
FIRST_PIECE_MARGIN_GOAL = 100.0  # ms: p95 Enter → first piece, at most the anchor's and this
DONE_RATIO_GOAL = 1.1  # p95 reply done, at most this times the anchor's


class BenchmarkFailed(RuntimeError):
    """Something was lost or crossed, or a flow did not complete."""


@dataclass
class Cell:
    """What one cell of the matrix measured."""

    workers: int
    people: int
    remote_agent: bool = False  # the agent served in a process of its own (bench/_demo_agent.py), not in the app
    anchor: bool = False  # the anchor app (bench/anchor_app), not the copilot
    flow: str = "demo"
    replies: list[str] = field(default_factory=list)  # the whole replies the people received
    layers: Counter[str] | None = None  # with --profile: the app's CPU samples while the people were on, by layer
    waits: dict[str, list[float]] | None = None  # with --profile: ms each stage of a message's way to its first frame
    # with --profile: the workers' figures while the people were on (bench/_timeline.SUMMED): the garbage collector's
    # stops ("paused", s) and the event loop's iterations
    worker: dict[str, float] | None = None
    gc_longest: float = 0.0  # s, the garbage collector's longest stop since the app started
    turns: list[Turn] = field(default_factory=list)
    by_step: list[list[Turn]] = field(default_factory=list)  # the turns of each step of the flow, every person's
    tab: TabFigures = field(default_factory=TabFigures)
    cpu: float = 0.0  # s of the app's CPU while the people were on
    services_cpu: float | None = None  # s of Redis's and PostgreSQL's
    agent_cpu: float | None = None  # s of the remote agent's process
    busy: float = 0.0  # s from the first arrival to the last end
    growth: int = 0  # bytes of resident memory, all sessions open
    kept: int = 0  # bytes of resident memory, all sessions closed
    lost: int = 0
    crossed: int = 0
    incomplete: list[str] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)  # s, the driver's event loop
    driver_cpu: float = 0.0  # s of this process's CPU while the people were on
    machine_cpu: float = 0.0  # s of the whole machine's CPU (every core, every process) meanwhile
    took: float = 0.0
    rounds: list[float] = field(default_factory=list)  # s of the app's CPU per turn, in each round measured

    @property
    def name(self) -> str:
        flow = "" if self.flow == "demo" else f"_{self.flow}"
        agent = "_remote_agent" if self.remote_agent else ""
        return f"{'anchor' if self.anchor else 'load'}_{self.workers}w_{self.people}p{flow}{agent}"

    @property
    def sessions(self) -> int:
        return self.people + (1 if self.tab.turns else 0)  # the people's and the tab's

    @property
    def turn_count(self) -> int:
        return len(self.turns) + self.tab.turns

    def joined(self, other: Cell) -> Cell:
        """This cell and another round of it as one: their turns, samples and totals together."""
        return replace(
            self,
            replies=[*self.replies, *other.replies],
            layers=None if self.layers is None or other.layers is None else self.layers + other.layers,
            waits=None if self.waits is None or other.waits is None
            else {stage: [*self.waits[stage], *other.waits[stage]] for stage in self.waits},
            worker=None if self.worker is None or other.worker is None
            else {figure: self.worker[figure] + other.worker[figure] for figure in self.worker},
            gc_longest=max(self.gc_longest, other.gc_longest),
            turns=[*self.turns, *other.turns],
            by_step=[[*mine, *theirs] for mine, theirs in zip(self.by_step, other.by_step, strict=True)],
            tab=TabFigures([*self.tab.first_text, *other.tab.first_text], self.tab.turns + other.tab.turns,
                           [*self.tab.problems, *other.tab.problems]),
            cpu=self.cpu + other.cpu,
            services_cpu=_sum(self.services_cpu, other.services_cpu),
            agent_cpu=_sum(self.agent_cpu, other.agent_cpu),
            busy=self.busy + other.busy,
            growth=max(self.growth, other.growth),
            kept=max(self.kept, other.kept),
            lost=self.lost + other.lost,
            crossed=self.crossed + other.crossed,
            incomplete=[*self.incomplete, *other.incomplete],
            lag=[*self.lag, *other.lag],
            driver_cpu=self.driver_cpu + other.driver_cpu,
            machine_cpu=self.machine_cpu + other.machine_cpu,
            took=self.took + other.took,
            rounds=[*self.rounds, *other.rounds],
        )  # fmt: skip

    def failures(self) -> list[str]:
        name = f"{'the anchor app' if self.anchor else 'the copilot'}, {self.workers} worker(s), {self.people} people"
        problems = [f"{name}: {problem}" for problem in (*self.incomplete, *self.tab.problems)]
        if self.lost:
            problems.append(f"{name}: {self.lost} piece(s) of replies lost")
        if self.crossed:
            problems.append(f"{name}: {self.crossed} frame(s) carried another person's conversation")
        return problems


def main(argv: Sequence[str] = ()) -> None:
    people, workers, remote_agent, flow, profile, rounds = _cells(argv)
    started = time.perf_counter()
    with stopped_on_sigterm():
        failures = asyncio.run(run(people, workers, remote_agent=remote_agent, flow=flow, profile=profile, rounds=rounds))
    print(f"load_matrix_took: {time.perf_counter() - started:.0f} s", flush=True)
    if failures:
        raise BenchmarkFailed("\n".join(failures))


async def run(
    people: Sequence[int],
    workers: Sequence[int],
    *,
    remote_agent: bool = False,
    flow: str = "demo",
    profile: bool = False,
    rounds: int = ROUNDS,
) -> list[str]:
    """Every cell: for each worker count, each N on a fresh serving; with the hello flow, the anchor app's cell beside
    the copilot's, each app served `rounds` times in the order ABBA… (which goes first alternates from cell to cell).
    The failures found."""
    failures: list[str] = []
    said = ""  # the copilot's first reply: what the anchor app's model says (the first cell serves the copilot first)
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=_chromium(), headless=True, args=CHROMIUM_ARGS)
        try:
            for count in workers:
                try:
                    with _services(count) as services:
                        for index, number in enumerate(people):
                            cells: dict[bool, Cell] = {}
                            for anchor in served_in_turn(index, rounds if flow == "hello" else 1, flow == "hello"):
                                cell = await serve_and_measure(
                                    browser, services, count, number, remote_agent=remote_agent, flow=flow, anchor=anchor,
                                    reply=said, profile=profile,
                                )  # fmt: skip
                                cells[anchor] = cells[anchor].joined(cell) if anchor in cells else cell
                                said = said or (cell.replies[0] if cell.replies and not anchor else "")
                            for cell in cells.values():
                                print_cell(cell)
                                failures += cell.failures()
                            if True in cells:
                                print_against_anchor(cells[False], cells[True])
                except ServiceUnavailable as missing:
                    print(f"# load: {count} workers skipped: {missing}", flush=True)
        finally:
            await browser.close()
    return failures


def served_in_turn(index: int, rounds: int, with_anchor: bool) -> list[bool]:
    """Which app each serving of cell `index` measures (True: the anchor): copilot, anchor, anchor, copilot…, the other
    way round in every other cell; the copilot alone without the anchor."""
    if not with_anchor:
        return [False] * rounds
    pair = [index % 2 == 1, index % 2 == 0]
    return [anchor for number in range(rounds) for anchor in (pair if number % 2 == 0 else pair[::-1])]


@dataclass(frozen=True)
class Services:
    """Redis and PostgreSQL for several workers (None for one worker)."""

    redis_url: str | None = None
    postgres: PostgresServer | None = None

    def environment(self, workers: int, folder: Path) -> dict[str, str]:
        """The app's environment: its files in `folder`; with services, state in Redis and data in PostgreSQL."""
        environment = {
            "GRANIAN_WORKERS": str(workers),
            "COPILOT_HOME": str(folder / "home"),
            "COPILOT_SECRET": secrets.token_urlsafe(24),
            "REDIS_URL": "",
            "COPILOT_STORE_URL": str(folder / "threads.db"),
            "DEMO_DATABASE_URL": f"sqlite:///{folder / 'demo.db'}",
        }
        if self.redis_url is not None and self.postgres is not None:
            environment["REDIS_URL"] = self.redis_url
            environment["COPILOT_STORE_URL"] = self.postgres.url(self.postgres.create_database())
            environment["DEMO_DATABASE_URL"] = self.postgres.url(self.postgres.create_database())
        return environment

    def processes(self) -> Processes | None:
        if self.redis_url is None or self.postgres is None:
            return None
        redis_address = self.redis_url.removeprefix("redis://").partition("/")[0]
        return Processes(named=(redis_address, f"-p {self.postgres.port} "))


@contextlib.contextmanager
def _services(workers: int) -> Iterator[Services]:
    if workers == 1:
        yield Services()
        return
    with running_redis() as redis_url, running_postgres() as postgres:
        yield Services(redis_url, postgres)


async def serve_and_measure(
    browser: Browser,
    services: Services,
    workers: int,
    people: int,
    *,
    remote_agent: bool = False,
    flow: str = "demo",
    anchor: bool = False,
    reply: str = "",
    profile: bool = False,
) -> Cell:
    """Serve the app afresh (the copilot, its agent in a process of its own with `remote_agent`; or the anchor app,
    its model saying `reply` to every message) and measure one cell on it; with `profile`, where the app's CPU went."""
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="cui-load-"))
    samples = folder / "profile" if profile else None
    with contextlib.ExitStack() as stack:
        environment = services.environment(workers, folder)
        if anchor:
            environment = _for_anchor(environment, reply)
        if samples is not None:
            samples.mkdir()
            environment |= {"LOAD_PROFILE_DIR": str(samples), "PYTHONPATH": os.pathsep.join([str(PROFILING), str(ROOT)])}
        if anchor:
            app = ServedApp(environment=environment, folder=ANCHOR_APP, web_dir=ANCHOR_WEB)
            agent = None
        else:
            agent = stack.enter_context(AgentProcess("bench._demo_agent", _without_copilot(os.environ))) if remote_agent else None
            app = ServedApp(agent.url if agent else None, environment=environment)
        try:
            await asyncio.to_thread(app.__enter__)
            agent_usage = Processes(group=agent.group) if agent else None
            cell = Cell(workers, people, remote_agent=agent is not None, anchor=anchor, flow=flow)
            await measure(cell, browser, app, services.processes(), agent_usage, samples)
        finally:
            await asyncio.to_thread(app.stop)
            shutil.rmtree(folder, ignore_errors=True)
    cell.took = time.perf_counter() - started
    cell.rounds = [_cpu_per_turn(cell)]
    return cell


async def measure(
    cell: Cell,
    browser: Browser,
    app: ServedApp,
    services: Processes | None,
    agent: Processes | None = None,
    samples: Path | None = None,
) -> None:
    """Warm-up people, then the cell's people (and, in the copilot's demo flow, the real tab) at once: their figures,
    the server's (and the agent's), and the app's CPU by layer when it is sampled into `samples`, into `cell`."""
    server = Processes(group=app.group)
    run, steps = new_run(), FLOWS[cell.flow]
    visitor = AnchorPerson if cell.anchor else Person
    warm_up = [visitor(app.url, marker(run, f"w{number}"), random.Random(-number)) for number in range(WARM_UP * cell.workers)]
    await asyncio.gather(*(_visit(person, 0.0, steps) for person in warm_up))
    await asyncio.gather(*(person.close() for person in warm_up))
    cell.incomplete += [f"warm-up {person.marker}: {person.problem}" for person in warm_up if person.problem]

    crowd = [visitor(app.url, marker(run, number), random.Random(number)) for number in range(cell.people)]
    crowd_done, lag_done = asyncio.Event(), asyncio.Event()
    lag = asyncio.create_task(_driver_lag(lag_done, cell.lag))
    await asyncio.sleep(2 * WRITE_EVERY if samples is not None else 0)  # (the warm-up's samples written)
    before, services_before = server.usage(), services.usage() if services else None
    sampled = layer_shares(samples) if samples is not None else None
    worker_before = timeline(samples, 0.0)[1] if samples is not None else {}
    began_wall = time.time()
    agent_before = agent.usage() if agent else None
    began, driver_before, machine_before = time.perf_counter(), time.process_time(), machine_cpu()
    # (the demo flow's tab is the copilot's only: the anchor app has no tools)
    with_tab = cell.flow == "hello" or not cell.anchor
    flowing = tab_flow(browser, app.url, crowd_done, random.Random(cell.people), steps, anchor=cell.anchor)
    tab = asyncio.create_task(flowing) if with_tab else None
    await asyncio.gather(*(_visit(person, RAMP * number / cell.people, steps) for number, person in enumerate(crowd)))
    crowd_done.set()
    cell.tab = await tab if tab is not None else TabFigures()
    cell.busy, cell.driver_cpu = time.perf_counter() - began, time.process_time() - driver_before
    cell.machine_cpu = machine_cpu() - machine_before
    after, services_after = server.usage(), services.usage() if services else None
    if samples is not None and sampled is not None:
        await asyncio.sleep(2 * WRITE_EVERY)
        cell.layers = layer_shares(samples) - sampled
        messages, worker = timeline(samples, began_wall)
        cell.waits, cell.gc_longest = stage_waits(messages), worker["longest"]
        cell.worker = {figure: worker[figure] - worker_before[figure] for figure in SUMMED}
    if agent is not None and agent_before is not None:
        cell.agent_cpu = agent.usage().cpu - agent_before.cpu
    lag_done.set()
    await lag

    people = [person for person in crowd if isinstance(person, Person)]
    await asyncio.gather(*(person.check_texts() for person in people))
    await asyncio.gather(*(person.close() for person in crowd))
    await asyncio.sleep(SETTLE)
    closed = server.usage()

    cell.turns = [turn for person in crowd for turn in person.turns]
    cell.by_step = [[turn for person in crowd for turn in person.turns[step : step + 1]] for step in range(len(steps))]
    cell.cpu = after.cpu - before.cpu
    if services_before is not None and services_after is not None:
        cell.services_cpu = services_after.cpu - services_before.cpu
    cell.growth, cell.kept = after.rss - before.rss, closed.rss - before.rss
    cell.lost = sum(person.witness.lost() for person in people)
    cell.crossed = sum(crossed([person.witness for person in people]))
    cell.crossed += sum(person.crossed for person in crowd if isinstance(person, AnchorPerson))
    cell.replies = [reply for person in crowd for reply in person.replies]
    cell.incomplete += [f"{person.marker}: {person.problem}" for person in crowd if person.problem]


async def _visit(person: Person | AnchorPerson, after: float, steps: tuple[Step, ...]) -> None:
    """The person arrives `after` seconds from now, and goes through the flow (the connection stays open)."""
    await asyncio.sleep(after)
    try:
        await person.connect()
    except Exception as error:  # a refused or broken connection is an incomplete flow, not the end of the benchmark
        person.problem = f"could not connect: {type(error).__name__}: {error}"
        return
    await person.do_flow(steps)


async def _driver_lag(done: asyncio.Event, samples: list[float]) -> None:
    while not done.is_set():
        started = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        samples.append(time.perf_counter() - started - LAG_TICK)


def print_cell(cell: Cell) -> None:
    name = cell.name
    approved = [turn.approve_to_result * 1000 for turn in cell.turns if turn.approve_to_result is not None]
    lines = [
        ("first_piece_p50", _ms(percentile(_first_pieces(cell), 50))),
        ("first_piece_p95", _ms(percentile(_first_pieces(cell), 95))),
        ("first_shown_p50", _ms(percentile(_first_shown(cell), 50))),
        ("first_shown_p95", _ms(percentile(_first_shown(cell), 95))),
        ("reply_done_p95", _ms(percentile(_reply_ends(cell), 95))),
        ("approve_to_result_p95", _ms(percentile(approved, 95))),
        ("server_cpu_per_turn", f"{_cpu_per_turn(cell) * 1000:.0f} ms ({cell.turn_count} turns)"),
        ("reply_chars_p50", f"{percentile([len(reply) for reply in cell.replies], 50) or 0:.0f}"),
        ("server_cpu", f"{cell.cpu / cell.busy * 100:.0f} % of a core ({cell.busy:.0f} s)"),
    ]
    for number, turns in enumerate(cell.by_step, 1):
        pieces = [turn.first_piece * 1000 for turn in turns if turn.first_piece is not None]
        lines.append((f"first_piece_step{number}_p50_p95", f"{_ms(percentile(pieces, 50))} / {_ms(percentile(pieces, 95))}"))
        ends = [turn.done * 1000 for turn in turns if turn.done is not None]
        lines.append((f"reply_done_step{number}_p50_p95", f"{_ms(percentile(ends, 50))} / {_ms(percentile(ends, 95))}"))
    if len(cell.rounds) > 1:
        lines.append(("server_cpu_per_turn_rounds", " / ".join(f"{each * 1000:.0f}" for each in cell.rounds) + " ms"))
    if cell.services_cpu is not None:
        lines.append(("services_cpu_per_turn", f"{cell.services_cpu / max(cell.turn_count, 1) * 1000:.0f} ms"))
    if cell.agent_cpu is not None:
        lines.append(("agent_cpu_per_turn", f"{cell.agent_cpu / max(cell.turn_count, 1) * 1000:.0f} ms"))
    lines += [
        ("memory_per_session", f"{cell.growth / cell.sessions / MB:.2f} MB"),
        ("memory_kept_per_session", f"{cell.kept / cell.sessions / MB:.2f} MB"),
        ("lost", f"{cell.lost} pieces"),
        ("crossed", f"{cell.crossed} frames"),
        ("incomplete", f"{len(cell.incomplete)} flows"),
        ("tab_first_text_p50", f"{_ms(percentile(cell.tab.first_text, 50))} ({len(cell.tab.first_text)} replies)"),
        ("tab_first_text_max", _ms(max(cell.tab.first_text, default=None))),
        ("driver_lag_p95", _ms(percentile([sample * 1000 for sample in cell.lag], 95))),
        ("driver_cpu", f"{cell.driver_cpu / cell.busy * 100:.0f} % of a core"),
        ("machine_cpu", f"{cell.machine_cpu / cell.busy * 100:.0f} % of a core (of {os.cpu_count()} cores: every process)"),
        ("took", f"{cell.took:.0f} s"),
    ]
    if cell.layers:
        samples = sum(cell.layers.values())
        for layer, count in cell.layers.most_common():
            share = count / samples
            slug = re.sub(r"\W+", "_", layer.split("(")[0]).strip("_").lower()
            lines.append((f"profile_{slug}", f"{_cpu_per_turn(cell) * share * 1000:.1f} ms per turn ({share:.0%}: {layer})"))
    if cell.waits is not None:
        for stage, waits in cell.waits.items():
            p50_p95 = f"{_ms(percentile(waits, 50))} / {_ms(percentile(waits, 95))}"
            lines.append((f"wait_{stage}", f"{p50_p95} ({len(waits)} messages)"))
    if (worker := cell.worker) is not None:
        turns, iterations = max(cell.turn_count, 1), worker["iterations"]
        lines.append(("gc_pause_per_turn", f"{worker['paused'] / turns * 1000:.1f} ms"))
        lines.append(("gc_longest_pause", f"{cell.gc_longest * 1000:.0f} ms"))
        if iterations:
            each = f"{worker['callbacks'] / iterations:.1f} callbacks, {worker['busy'] / iterations * 1e6:.0f} µs"
            lines.append(("loop_iterations_per_turn", f"{iterations / turns:.0f} (each {each} on average)"))
            long = f"{worker['long'] / turns:.2f} ({LONG_ITERATION * 1000:.0f} ms or more)"
            lines.append(("loop_long_iterations_per_turn", long))
    for figure, value in lines:
        print(f"{name}_{figure}: {value}", flush=True)


def print_against_anchor(copilot: Cell, anchor: Cell) -> None:
    """The copilot's figures as ratios to the anchor's, in the same flow and cell, each with its goal."""
    cpu = _cpu_per_turn(copilot) / max(_cpu_per_turn(anchor), 1e-9)
    first, anchor_first = percentile(_first_pieces(copilot), 95), percentile(_first_pieces(anchor), 95)
    done, anchor_done = percentile(_reply_ends(copilot), 95), percentile(_reply_ends(anchor), 95)
    shown, anchor_shown = percentile(_first_shown(copilot), 95), percentile(_first_shown(anchor), 95)
    lines = [("cpu_per_turn_vs_anchor", f"{cpu:.2f}x (goal: at most {CPU_RATIO_GOAL}x)")]
    if first is not None and anchor_first is not None:
        lines.append(
            ("first_piece_p95_over_anchor", f"{first - anchor_first:+.0f} ms (goal: at most +{FIRST_PIECE_MARGIN_GOAL:.0f} ms)")
        )
    if shown is not None and anchor_shown is not None:
        lines.append(("first_shown_p95_over_anchor", f"{shown - anchor_shown:+.0f} ms"))
    if done is not None and anchor_done is not None:
        lines.append(("reply_done_p95_vs_anchor", f"{done / anchor_done:.2f}x (goal: at most {DONE_RATIO_GOAL}x)"))
    on_screen, anchor_on_screen = percentile(copilot.tab.first_text, 50), percentile(anchor.tab.first_text, 50)
    if on_screen is not None and anchor_on_screen is not None:  # (a real tab's, in the page: what a person sees)
        lines.append(("tab_first_text_p50_over_anchor", f"{on_screen - anchor_on_screen:+.0f} ms"))
    for figure, value in lines:
        print(f"{copilot.name}_{figure}: {value}", flush=True)


def _first_pieces(cell: Cell) -> list[float]:
    return [turn.first_piece * 1000 for turn in cell.turns if turn.first_piece is not None]


def _first_shown(cell: Cell) -> list[float]:
    return [turn.first_shown * 1000 for turn in cell.turns if turn.first_shown is not None]


def _reply_ends(cell: Cell) -> list[float]:
    return [turn.done * 1000 for turn in cell.turns if turn.done is not None]


def _sum(first: float | None, second: float | None) -> float | None:
    return None if first is None or second is None else first + second


def _cpu_per_turn(cell: Cell) -> float:
    return cell.cpu / max(cell.turn_count, 1)


def percentile(values: Sequence[float], percent: float) -> float | None:
    """The value below which `percent` % of the values lie (interpolated between the nearest two); None when empty."""
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(percent) - 1] if percent < 100 else max(values)


def _chromium() -> str | None:
    """The system's Chromium where present (else Playwright's own)."""
    return str(CHROMIUM) if CHROMIUM.exists() else None


def _ms(value: float | None) -> str:
    return "none" if value is None else f"{value:.0f} ms"


def _cells(argv: Sequence[str]) -> tuple[tuple[int, ...], tuple[int, ...], bool, str, bool, int]:
    """Which cells to run: the whole matrix, unless the arguments (or LOAD_PEOPLE, LOAD_WORKERS, LOAD_REMOTE_AGENT,
    LOAD_FLOW) say otherwise; whether the agent is served in a process of its own; and the flow."""
    parser = argparse.ArgumentParser(prog="python -m bench.load", description="The load benchmark (see its docstring).")
    parser.add_argument("--quick", action="store_true", help=f"N = {', '.join(map(str, QUICK_PEOPLE))} on one worker")
    parser.add_argument("--people", default=os.environ.get("LOAD_PEOPLE", ""), help="e.g. 10,25 (default: 10,25,50,100)")
    parser.add_argument("--workers", default=os.environ.get("LOAD_WORKERS", ""), help="e.g. 1 or 1,2 (default: 1,2)")
    parser.add_argument(
        "--remote-agent",
        action="store_true",
        default=os.environ.get("LOAD_REMOTE_AGENT", "") not in ("", "0"),
        help="the demo's agent served over AG-UI by a process of its own (bench/_demo_agent.py), the app its client",
    )
    parser.add_argument(
        "--flow",
        choices=sorted(FLOWS),
        default=os.environ.get("LOAD_FLOW", "") or "demo",
        help='"hello" four times, on the copilot and on the anchor app (a plain Reflex chat), or the demo flow (default)',
    )
    parser.add_argument("--profile", action="store_true", help="the app's CPU per turn by layer (bench/_layers.py)")
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help=f"with --flow hello: servings of each app per cell (default {ROUNDS})"
    )
    options = parser.parse_args(list(argv))
    if options.rounds < 1:
        parser.error(f"--rounds must be 1 or more; it is {options.rounds}")
    if options.flow == "hello" and options.remote_agent:
        parser.error("--remote-agent measures the copilot alone: it has no anchor to compare with (use --flow demo)")
    people = _numbers(options.people) or (QUICK_PEOPLE if options.quick else PEOPLE)
    workers = _numbers(options.workers) or ((1,) if options.quick else WORKERS)
    return people, workers, options.remote_agent, options.flow, options.profile, options.rounds


def _for_anchor(environment: Mapping[str, str], reply: str) -> dict[str, str]:
    """The anchor app's environment for a cell: its workers, Redis as Reflex itself reads it, the same Reflex settings
    as the copilot's rxconfig.py sets (the opportunistic lock), and what its model says."""
    redis_url = environment.get("REDIS_URL", "")
    return {
        "GRANIAN_WORKERS": environment["GRANIAN_WORKERS"],
        "REFLEX_OPLOCK_ENABLED": "true",
        "ANCHOR_REPLY": reply,
        **({"REFLEX_REDIS_URL": redis_url} if redis_url else {}),
    }


def _without_copilot(environment: Mapping[str, str]) -> dict[str, str]:
    """This environment without the copilot's settings: the agent's process runs the demo model, as the app would."""
    return {key: value for key, value in environment.items() if not key.startswith("COPILOT_")}


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.replace(" ", "").split(",") if part)


if __name__ == "__main__":
    main(sys.argv[1:])
