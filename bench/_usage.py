"""What a server's processes use, read from /proc (Linux): their CPU time and their resident memory.

A server is a process group (the app: `reflex run` and its workers, started in a session of their
own) and the processes whose command line names it (a redis-server by its port, a PostgreSQL by its
port), with all their descendants (PostgreSQL's backends). The machine's own busy time says what
everything else took meanwhile (other processes share the cores). No psutil: /proc has all of it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
PROC = Path("/proc")


@dataclass(frozen=True)
class Usage:
    """CPU time so far (user + system, in seconds) and resident memory now (bytes), summed over processes."""

    cpu: float
    rss: int
    processes: int


@dataclass(frozen=True)
class Processes:
    """The processes of a server: a process group, and those whose command line holds one of `named` (with their
    descendants)."""

    group: int | None = None
    named: tuple[str, ...] = ()

    def pids(self) -> set[int]:
        table = list(_table())
        chosen = {pid for pid, _, group, command in table if group == self.group or any(name in command for name in self.named)}
        children: dict[int, list[int]] = {}
        for pid, parent, _, _ in table:
            children.setdefault(parent, []).append(pid)
        todo = list(chosen)
        while todo:
            for child in children.get(todo.pop(), ()):
                if child not in chosen:
                    chosen.add(child)
                    todo.append(child)
        return chosen

    def usage(self) -> Usage:
        """What the processes use now (one that ends while it is read counts as nothing)."""
        cpu, rss, count = 0.0, 0, 0
        for pid in self.pids():
            try:
                fields = _stat_fields(pid)
                resident = int((PROC / str(pid) / "statm").read_text().split()[1])
            except (OSError, IndexError, ValueError):
                continue
            cpu += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (stat fields 14 and 15)
            rss += resident * PAGE_BYTES
            count += 1
        return Usage(cpu, rss, count)


def machine_cpu() -> float:
    """CPU time the whole machine has spent busy so far, over all its cores, in seconds (from /proc/stat)."""
    ticks = [int(value) for value in (PROC / "stat").read_text().splitlines()[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks[:8]) - idle) / CLOCK_TICKS  # user … steal (guest time is counted in user already)


def _table() -> Iterator[tuple[int, int, int, str]]:
    """(pid, parent pid, process group, command line) of every process."""
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            fields = _stat_fields(pid)
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        yield pid, int(fields[1]), int(fields[2]), command


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command name (which may hold spaces): state, ppid, pgrp, ..."""
    stat = (PROC / str(pid) / "stat").read_text()
    return stat[stat.rindex(")") + 2 :].split()
