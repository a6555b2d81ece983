"""One build per set of compiled pages in a test run: the servings whose pages compile the same (the demo on its model,
on the hostile agent, on two workers...) share it, across the pytest processes of `tests/parallel.py` too.

A build is kept under `.web-test-shared/builds/<key>`, the key a digest of the compiled sources (the pages, the
components, the styles, the packages), and copied into the build folder of each serving with the same key. The one
thing a build holds of its serving is the backend's port (env.json, compiled into one chunk): it is written anew.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / ".web-test-shared"  # what the pytest processes of one test run share
BUILDS = SHARED / "builds"
# Not the pages: the packages installed, the build itself, and what holds the port or the time of the last run.
_NOT_PAGES = frozenset(
    {"node_modules", "build", ".react-router", "env.json", "reflex.json", "reflex.install_frontend_packages.cached"}
)
KEPT_FOR = 7 * 86400  # seconds a kept build stays for the next runs
_PORT = "port"  # the file, in a kept build, with the port it was built for
_CLIENT_STORAGE = b"export const clientStorage = "


def pages_key(web_dir: Path) -> str:
    """A digest of the build folder's compiled sources: equal for two servings whose builds would be the same."""
    digest = hashlib.sha256()
    for top in sorted(web_dir.iterdir()):
        if top.name in _NOT_PAGES:
            continue
        for path in sorted([top, *top.rglob("*")] if top.is_dir() else [top]):
            if path.is_file():
                digest.update(str(path.relative_to(web_dir)).encode() + b"\0" + _canonical(path) + b"\0")
    return digest.hexdigest()[:20]


def _canonical(path: Path) -> bytes:
    """The file's bytes, the client storage's fields in a fixed order: Reflex writes them in the order of a set of
    state classes, which differs between two processes compiling the same pages."""
    text = path.read_bytes()
    if path.name != "context.jsx":
        return text
    lines = text.split(b"\n")
    for number, line in enumerate(lines):
        if line.startswith(_CLIENT_STORAGE):
            storage = json.loads(line.removeprefix(_CLIENT_STORAGE))
            lines[number] = _CLIENT_STORAGE + json.dumps(storage, sort_keys=True).encode()
    return b"\n".join(lines)


def shared_build(web_dir: Path, port: int, build: Callable[[], None]) -> None:
    """The compiled pages in `web_dir` built for `port`: by `build` (which builds into `web_dir/build`), or copied from
    the build of the same pages kept earlier in the run (waiting while another process builds them)."""
    key = pages_key(web_dir)
    kept = BUILDS / key
    BUILDS.mkdir(parents=True, exist_ok=True)
    with (BUILDS / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.exists():
            build()
            keeping = BUILDS / f"{key}.part"
            shutil.rmtree(keeping, ignore_errors=True)
            shutil.copytree(web_dir / "build", keeping, symlinks=True)
            (keeping / _PORT).write_text(str(port))
            keeping.rename(kept)  # (whole, or not there)
            _forget_old_builds()
            return
    target = web_dir / "build"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(kept, target, symlinks=True, ignore=lambda folder, _names: [_PORT] if folder == str(kept) else [])
    _set_port(target, int((kept / _PORT).read_text()), port)


def _forget_old_builds() -> None:
    """Builds kept by earlier runs go after a week (a change of the pages makes a new key, and the old one stays)."""
    for old in BUILDS.iterdir():
        if old.is_dir() and time.time() - old.stat().st_mtime > KEPT_FOR:
            shutil.rmtree(old, ignore_errors=True)
            old.with_suffix(".lock").unlink(missing_ok=True)


def _set_port(build_dir: Path, built_for: int, port: int) -> None:
    """The backend's URLs in a copied build (Reflex compiles env.json into a `reflex-env-*.js` chunk) for `port`."""
    chunks = list(build_dir.glob("*/assets/reflex-env-*.js"))
    pattern = re.compile(rf"(//[\w.\-]+):{built_for}/")
    for chunk in chunks:
        text, count = pattern.subn(rf"\1:{port}/", chunk.read_text())
        if count == 0:
            raise RuntimeError(f"{chunk} names no backend on port {built_for}: Reflex's build changed, see {__file__}")
        chunk.write_text(text)
        for sidecar in chunk.parent.glob(chunk.name + ".*"):  # precompressed copies: served instead, when present
            sidecar.unlink()
    if not chunks:
        raise RuntimeError(f"no reflex-env-*.js chunk in {build_dir}: Reflex's build changed, see {__file__}")
