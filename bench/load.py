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
  arguments), over every turn of every person;
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
- tab_first_text_p50 / _max: the real tab's Enter → first words of a "hello" reply on screen;
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

Run from the project root: .venv/bin/python -m bench.load
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, async_playwright

from bench._person import FLOW, Person, Turn, marker, new_run
from bench._real_tab import TabFigures, tab_flow
from bench._served import AgentProcess, ServedApp, stopped_on_sigterm
from bench._usage import Processes, machine_cpu
from bench._witness import crossed
from tests._processes import CHROMIUM_ARGS
from tests.services import PostgresServer, ServiceUnavailable, running_postgres, running_redis

PEOPLE = (10, 25, 50, 100)
WORKERS = (1, 2)
QUICK_PEOPLE = (10, 50)
RAMP = 1.0  # seconds over which the people arrive
WARM_UP = 2  # people per worker who go through the flow first, not counted (each worker's first turns cost more)
SETTLE = 3.0  # seconds after the sessions closed before the memory they kept is read
LAG_TICK = 0.05  # seconds between the driver's own lag samples
CHROMIUM = Path("/usr/bin/chromium")
MB = 1024 * 1024


class BenchmarkFailed(RuntimeError):
    """Something was lost or crossed, or a flow did not complete."""


@dataclass
class Cell:
    """What one cell of the matrix measured."""

    workers: int
    people: int
    remote_agent: bool = False  # the agent served in a process of its own (bench/_demo_agent.py), not in the app
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

    @property
    def sessions(self) -> int:
        return self.people + 1  # the people's and the tab's

    @property
    def turn_count(self) -> int:
        return len(self.turns) + self.tab.turns

    def failures(self) -> list[str]:
        name = f"{self.workers} worker(s), {self.people} people"
        problems = [f"{name}: {problem}" for problem in (*self.incomplete, *self.tab.problems)]
        if self.lost:
            problems.append(f"{name}: {self.lost} piece(s) of replies lost")
        if self.crossed:
            problems.append(f"{name}: {self.crossed} frame(s) carried another person's conversation")
        return problems


def main(argv: Sequence[str] = ()) -> None:
    people, workers, remote_agent = _cells(argv)
    started = time.perf_counter()
    with stopped_on_sigterm():
        failures = asyncio.run(run(people, workers, remote_agent=remote_agent))
    print(f"load_matrix_took: {time.perf_counter() - started:.0f} s", flush=True)
    if failures:
        raise BenchmarkFailed("\n".join(failures))


async def run(people: Sequence[int], workers: Sequence[int], *, remote_agent: bool = False) -> list[str]:
    """Every cell: for each worker count, each N on a fresh serving. The failures found."""
    failures: list[str] = []
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=_chromium(), headless=True, args=CHROMIUM_ARGS)
        try:
            for count in workers:
                try:
                    with _services(count) as services:
                        for number in people:
                            cell = await serve_and_measure(browser, services, count, number, remote_agent=remote_agent)
                            print_cell(cell)
                            failures += cell.failures()
                except ServiceUnavailable as missing:
                    print(f"# load: {count} workers skipped: {missing}", flush=True)
        finally:
            await browser.close()
    return failures


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
    browser: Browser, services: Services, workers: int, people: int, *, remote_agent: bool = False
) -> Cell:
    """Serve the app afresh (and its agent in a process of its own, with `remote_agent`) and measure one cell on it."""
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="cui-load-"))
    with contextlib.ExitStack() as stack:
        agent = stack.enter_context(AgentProcess("bench._demo_agent", _without_copilot(os.environ))) if remote_agent else None
        app = ServedApp(agent.url if agent else None, environment=services.environment(workers, folder))
        try:
            await asyncio.to_thread(app.__enter__)
            agent_usage = Processes(group=agent.group) if agent else None
            cell = await measure(browser, app, services.processes(), workers, people, agent_usage)
        finally:
            await asyncio.to_thread(app.stop)
            shutil.rmtree(folder, ignore_errors=True)
    cell.took = time.perf_counter() - started
    return cell


async def measure(
    browser: Browser, app: ServedApp, services: Processes | None, workers: int, people: int, agent: Processes | None = None
) -> Cell:
    """Warm-up people, then `people` people and the real tab at once; their figures, the server's (and the agent's)."""
    cell = Cell(workers, people, remote_agent=agent is not None)
    server = Processes(group=app.group)
    run = new_run()
    warm_up = [Person(app.url, marker(run, f"w{number}"), random.Random(-number)) for number in range(WARM_UP * workers)]
    await asyncio.gather(*(_visit(person, 0.0) for person in warm_up))
    await asyncio.gather(*(person.close() for person in warm_up))
    cell.incomplete += [f"warm-up {person.marker}: {person.problem}" for person in warm_up if person.problem]

    crowd = [Person(app.url, marker(run, number), random.Random(number)) for number in range(people)]
    crowd_done, lag_done = asyncio.Event(), asyncio.Event()
    lag = asyncio.create_task(_driver_lag(lag_done, cell.lag))
    before, services_before = server.usage(), services.usage() if services else None
    agent_before = agent.usage() if agent else None
    began, driver_before, machine_before = time.perf_counter(), time.process_time(), machine_cpu()
    tab = asyncio.create_task(tab_flow(browser, app.url, crowd_done, random.Random(people)))
    await asyncio.gather(*(_visit(person, RAMP * number / people) for number, person in enumerate(crowd)))
    crowd_done.set()
    cell.tab = await tab
    cell.busy, cell.driver_cpu = time.perf_counter() - began, time.process_time() - driver_before
    cell.machine_cpu = machine_cpu() - machine_before
    after, services_after = server.usage(), services.usage() if services else None
    if agent is not None and agent_before is not None:
        cell.agent_cpu = agent.usage().cpu - agent_before.cpu
    lag_done.set()
    await lag

    await asyncio.gather(*(person.check_texts() for person in crowd))
    await asyncio.gather(*(person.close() for person in crowd))
    await asyncio.sleep(SETTLE)
    closed = server.usage()

    cell.turns = [turn for person in crowd for turn in person.turns]
    cell.by_step = [[turn for person in crowd for turn in person.turns[step : step + 1]] for step in range(len(FLOW))]
    cell.cpu = after.cpu - before.cpu
    if services_before is not None and services_after is not None:
        cell.services_cpu = services_after.cpu - services_before.cpu
    cell.growth, cell.kept = after.rss - before.rss, closed.rss - before.rss
    cell.lost = sum(person.witness.lost() for person in crowd)
    cell.crossed = sum(crossed([person.witness for person in crowd]))
    cell.incomplete += [f"{person.marker}: {person.problem}" for person in crowd if person.problem]
    return cell


async def _visit(person: Person, after: float) -> None:
    """The person arrives `after` seconds from now, and goes through the flow (the connection stays open)."""
    await asyncio.sleep(after)
    try:
        await person.connect()
    except Exception as error:  # a refused or broken connection is an incomplete flow, not the end of the benchmark
        person.problem = f"could not connect: {type(error).__name__}: {error}"
        return
    await person.do_flow(FLOW)


async def _driver_lag(done: asyncio.Event, samples: list[float]) -> None:
    while not done.is_set():
        started = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        samples.append(time.perf_counter() - started - LAG_TICK)


def print_cell(cell: Cell) -> None:
    name = f"load_{cell.workers}w_{cell.people}p{'_remote_agent' if cell.remote_agent else ''}"
    first = [turn.first_piece * 1000 for turn in cell.turns if turn.first_piece is not None]
    done = [turn.done * 1000 for turn in cell.turns if turn.done is not None]
    approved = [turn.approve_to_result * 1000 for turn in cell.turns if turn.approve_to_result is not None]
    lines = [
        ("first_piece_p50", _ms(percentile(first, 50))),
        ("first_piece_p95", _ms(percentile(first, 95))),
        ("reply_done_p95", _ms(percentile(done, 95))),
        ("approve_to_result_p95", _ms(percentile(approved, 95))),
        ("server_cpu_per_turn", f"{cell.cpu / max(cell.turn_count, 1) * 1000:.0f} ms ({cell.turn_count} turns)"),
        ("server_cpu", f"{cell.cpu / cell.busy * 100:.0f} % of a core ({cell.busy:.0f} s)"),
    ]
    for number, turns in enumerate(cell.by_step, 1):
        pieces = [turn.first_piece * 1000 for turn in turns if turn.first_piece is not None]
        lines.append((f"first_piece_step{number}_p50_p95", f"{_ms(percentile(pieces, 50))} / {_ms(percentile(pieces, 95))}"))
        ends = [turn.done * 1000 for turn in turns if turn.done is not None]
        lines.append((f"reply_done_step{number}_p50_p95", f"{_ms(percentile(ends, 50))} / {_ms(percentile(ends, 95))}"))
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
    for figure, value in lines:
        print(f"{name}_{figure}: {value}", flush=True)


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


def _cells(argv: Sequence[str]) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Which cells to run: the whole matrix, unless the arguments (or LOAD_PEOPLE, LOAD_WORKERS, LOAD_REMOTE_AGENT)
    say otherwise; and whether the agent is served in a process of its own."""
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
    options = parser.parse_args(list(argv))
    people = _numbers(options.people) or (QUICK_PEOPLE if options.quick else PEOPLE)
    workers = _numbers(options.workers) or ((1,) if options.quick else WORKERS)
    return people, workers, options.remote_agent


def _without_copilot(environment: Mapping[str, str]) -> dict[str, str]:
    """This environment without the copilot's settings: the agent's process runs the demo model, as the app would."""
    return {key: value for key, value in environment.items() if not key.startswith("COPILOT_")}


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.replace(" ", "").split(",") if part)


if __name__ == "__main__":
    main(sys.argv[1:])
