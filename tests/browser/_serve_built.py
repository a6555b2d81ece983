"""Serve the app whose frontend is already built, as `reflex run --env prod` serves it once its build is done: the
backend on one port with the built pages mounted. `python -m tests.browser._serve_built PORT`, in the app's folder,
with the build folder in REFLEX_WEB_WORKDIR. A test that restarts the server restarts this: a restart is about the
server, and building the same pages again would only cost time."""

from __future__ import annotations

import sys

from reflex import constants
from reflex.config import get_config
from reflex.environment import environment
from reflex.utils import exec as reflex_exec


def main(port: int) -> None:
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_SKIP_COMPILE.set(True)
    config = get_config()
    reflex_exec.notify_app_running()
    reflex_exec.run_backend_prod(config.backend_host, port, config.loglevel.subprocess_level(), mount_frontend_compiled_app=True)


if __name__ == "__main__":
    main(int(sys.argv[1]))
