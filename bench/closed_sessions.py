"""Nothing left behind: 200 sessions open, talk and close, twice; what the server holds after each round.

The demo app in production mode, one worker, its tabs released CLOSED_TAB_SECONDS after their
connection closed (COPILOT_CLOSED_TAB_SECONDS; the default is two minutes, shortened here so the
benchmark does not wait for it). Simulated people (bench/_person.py, Reflex's own websocket) come in
waves of WAVE: each opens the page, says "hello", waits for the reply and closes the tab. After each
round of SESSIONS, and once the release has had its time, the benchmark reads:

- closed_sessions_round<k>_memory_open: growth of the app's resident memory (all its processes) over
  the round's sessions, per session, right after they closed;
- closed_sessions_round<k>_memory_after_release: the same, once their states were released;
- closed_sessions_round<k>_state_files: the files of session states in Reflex's state folder, when the
  round's last session closed and once they were released;
- closed_sessions_second_round_growth: how much the second round grew memory over the first's end
  (Python keeps the memory it freed for reuse rather than giving it to the system: memory given back
  shows as a second round that costs nothing more, and as state files gone).

Run from the project root: .venv/bin/python -m bench.closed_sessions
"""

from __future__ import annotations

import asyncio
import random
import secrets
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench._person import Person, Step, marker, new_run
from bench._served import ServedApp
from bench._usage import Processes

SESSIONS = 200
ROUNDS = 2
WAVE = 20  # sessions at once
CLOSED_TAB_SECONDS = 4.0
SETTLE = CLOSED_TAB_SECONDS * 2 + 2  # the release looks every quarter of the grace: a closed tab is gone by then
MB = 1024 * 1024


def main(argv: Sequence[str] = ()) -> None:
    started = time.perf_counter()
    asyncio.run(run())
    print(f"closed_sessions_took: {time.perf_counter() - started:.0f} s", flush=True)


async def run() -> None:
    folder = Path(tempfile.mkdtemp(prefix="cui-sessions-"))
    environment = {
        "COPILOT_CLOSED_TAB_SECONDS": str(CLOSED_TAB_SECONDS),
        "COPILOT_HOME": str(folder / "home"),
        "COPILOT_SECRET": secrets.token_urlsafe(24),
        "COPILOT_STORE_URL": str(folder / "threads.db"),
        "DEMO_DATABASE_URL": f"sqlite:///{folder / 'demo.db'}",
        "REDIS_URL": "",
    }
    app = ServedApp(environment=environment)
    try:
        await asyncio.to_thread(app.__enter__)
        await measure(app)
    finally:
        await asyncio.to_thread(app.stop)
        shutil.rmtree(folder, ignore_errors=True)


async def measure(app: ServedApp) -> None:
    server = Processes(group=app.group)
    states = Path(app.states_folder or ".")
    run_id = new_run()
    await _round(app, run_id, "warm", WAVE)  # each worker's first sessions cost more: not counted
    await asyncio.sleep(SETTLE)
    baseline = server.usage().rss
    ends: list[int] = []
    for number in range(1, ROUNDS + 1):
        before = server.usage().rss
        problems = await _round(app, run_id, number, SESSIONS)
        closed, files_at_close = server.usage().rss, _files(states)
        await asyncio.sleep(SETTLE)
        released = server.usage().rss
        ends.append(released)
        name = f"closed_sessions_round{number}"
        print(f"{name}_memory_open: {(closed - before) / SESSIONS / MB:.3f} MB per session", flush=True)
        print(f"{name}_memory_after_release: {(released - before) / SESSIONS / MB:.3f} MB per session", flush=True)
        print(f"{name}_state_files: {files_at_close} files when the last closed, {_files(states)} after release", flush=True)
        print(f"{name}_incomplete: {problems} sessions", flush=True)
    if len(ends) > 1:
        print(f"closed_sessions_second_round_growth: {(ends[1] - ends[0]) / MB:.1f} MB", flush=True)
    print(f"closed_sessions_total_growth: {(ends[-1] - baseline) / MB:.1f} MB over {ROUNDS * SESSIONS} sessions", flush=True)


async def _round(app: ServedApp, run_id: str, name: str | int, sessions: int) -> int:
    """`sessions` people, WAVE at a time, each opening the page, saying hello and closing; how many did not complete."""
    problems = 0
    for first in range(0, sessions, WAVE):
        people = [Person(app.url, marker(run_id, f"{name}-{n}"), random.Random(n)) for n in range(first, first + WAVE)]
        await asyncio.gather(*(_visit(person) for person in people))
        problems += sum(1 for person in people if person.problem)
    return problems


async def _visit(person: Person) -> None:
    try:
        await person.connect()
        await person.do_flow((Step("hello"),))
    except Exception as error:  # a refused connection counts as a session that did not complete
        person.problem = f"{type(error).__name__}: {error}"
    finally:
        await person.close()


def _files(folder: Path) -> int:
    return sum(1 for path in folder.rglob("*") if path.is_file()) if folder.exists() else 0


if __name__ == "__main__":
    main()
