"""`reflex run` for the tests' servings, each distinct frontend built once: `python -m tests._built_once <reflex run args>`.

The tests serve the app many times (other agents, other stores, two workers), each in a build folder of its own
(REFLEX_WEB_WORKDIR) on a port of its own. Most of those servings compile to the same pages, and Reflex's
production build of them (`npm run export`) takes a minute on a small machine. Here Reflex runs as always, except
that its build step looks in a cache first: pages compiled to the same sources as a build made before (by any
serving, in any run from this checkout) take that build, with the port it bakes into the page's settings rewritten
to this serving's. A new build folder starts as a copy of the first one that built (its npm packages installed), so
`npm install` runs once per checkout too (Reflex installs what is missing or different, as always).
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".web-test-builds"  # one folder per compiled frontend: its build/ and the port it was made for
SEED = CACHE / "seed"
INSTALLED = "reflex.install_frontend_packages.cached"  # Reflex's mark of a build folder whose npm packages are in
NOT_SOURCES = {"node_modules", "build", ".react-router", "env.json", "reflex.json", INSTALLED}


def seed(web_dir: Path) -> None:
    """A build folder that does not exist yet starts as a copy of the seed (a build folder with its npm packages
    installed, copied once it had built: no process changes it), when there is one."""
    if web_dir.exists() or not SEED.exists():
        return
    partial = web_dir.with_name(f"{web_dir.name}.partial-{os.getpid()}")
    shutil.copytree(SEED, partial, symlinks=True)
    partial.rename(web_dir)


def _keep_as_seed(web_dir: Path) -> None:
    if SEED.exists() or not (web_dir / INSTALLED).exists():
        return
    partial = CACHE / f"seed.partial-{os.getpid()}"
    top = str(web_dir)  # (its build/ only: packages have build folders of their own)
    shutil.copytree(web_dir, partial, symlinks=True, ignore=lambda folder, _: ["build"] if folder == top else [])
    partial.rename(SEED)


def main(arguments: list[str]) -> None:
    from reflex.reflex import cli
    from reflex.utils import build as reflex_build

    make = reflex_build.build
    CACHE.mkdir(exist_ok=True)
    # One serving at a time compiles and builds: Reflex keeps the app's lockfiles in the app's folder (reflex.lock/),
    # shared by every build folder, and two installs at once left it half-written (npm then missed packages).
    building = (CACHE / "building.lock").open("w")
    fcntl.flock(building, fcntl.LOCK_EX)

    def build() -> None:
        from reflex.utils import path_ops, prerequisites

        web_dir = prerequisites.get_web_dir()
        settings = json.loads((web_dir / "env.json").read_text())
        port = _port_of(settings)
        cached = CACHE / _key(web_dir, settings, port)
        if not (cached / "build").exists():
            make()
            partial = cached.with_name(f"{cached.name}.partial-{os.getpid()}")
            shutil.copytree(web_dir / "build", partial / "build", symlinks=True)
            (partial / "port").write_text(port)
            partial.rename(cached)
        else:
            path_ops.rm(str(web_dir / "build"))
            shutil.copytree(cached / "build", web_dir / "build", symlinks=True)
            _rewrite_port(web_dir / "build", (cached / "port").read_text(), port)
        _keep_as_seed(web_dir)
        fcntl.flock(building, fcntl.LOCK_UN)  # (the server starts: the next serving may build)

    reflex_build.build = build
    cli.main(args=arguments, prog_name="reflex")


def _port_of(settings: dict[str, object]) -> str:
    match = re.search(r":(\d+)/", str(settings["EVENT"]))
    assert match is not None, settings
    return match.group(1)


def _key(web_dir: Path, settings: dict[str, object], port: str) -> str:
    """The compiled sources of the pages (and their settings but the port), as a digest."""
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).replace(f":{port}/", ":PORT/").encode())
    for path in sorted(web_dir.rglob("*")):
        relative = path.relative_to(web_dir)
        if relative.parts[0] in NOT_SOURCES or not path.is_file():
            continue
        digest.update(str(relative).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def _rewrite_port(build: Path, old: str, new: str) -> None:
    """The build's settings name the port it was made for: this serving's instead (and their compressed copies)."""
    if old == new:
        return
    for path in build.rglob("*.js"):
        text = path.read_text(errors="surrogateescape")
        rewritten = text.replace(f"localhost:{old}/", f"localhost:{new}/")
        if rewritten != text:
            path.write_text(rewritten, errors="surrogateescape")
            compressed = path.with_name(path.name + ".gz")
            if compressed.exists():
                compressed.write_bytes(gzip.compress(path.read_bytes()))


def serve(arguments: list[str]) -> None:
    """`reflex <arguments>`, its build folder seeded and its build taken from the cache where it can be."""
    seed(Path(os.environ["REFLEX_WEB_WORKDIR"]).resolve() if "REFLEX_WEB_WORKDIR" in os.environ else ROOT / ".web")
    main(arguments)


if __name__ == "__main__":
    serve(sys.argv[1:])
