"""Serve the app in production mode, as `reflex run --env prod` serves it: the backend on one port with the built pages
mounted. `python -m tests.browser._prod_server PORT [--as-built]`, in the app's folder, its build folder (set up: its
frontend packages installed) in REFLEX_WEB_WORKDIR.

Servings whose pages compile the same share one build in a test run: the pages are compiled as `reflex run` compiles
them, then built once per set of pages (`_shared_builds`) and copied, with the port in it, to the servings that compile
the same. With `--as-built` (a test that restarts the server) the pages are served as they are: a restart is about
the server, and building the same pages again would only cost time.
"""

from __future__ import annotations

import sys

from reflex import constants
from reflex import reflex as reflex_cli
from reflex.config import get_config
from reflex.environment import environment
from reflex.utils import build, prerequisites
from reflex.utils import exec as reflex_exec

from tests.browser._shared_builds import shared_build


def main(arguments: list[str]) -> None:
    """`PORT [--as-built]`."""
    port, as_built = int(arguments[0]), "--as-built" in arguments[1:]
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    config = get_config()
    if not as_built:
        if prerequisites.needs_reinit():  # (a new build folder, or another Reflex's: as `reflex run` sets it up)
            reflex_cli._init(name=config.app_name)
        config._set_persistent(frontend_port=port, backend_port=port)  # (the pages' URLs of the backend: env.json)
        prerender = reflex_exec.should_prerender_routes()
        prerequisites.compile_or_validate_app(True, check_if_schema_up_to_date=True, prerender_routes=prerender)
        build.set_env_json()
        shared_build(prerequisites.get_web_dir(), port, build.build)
    environment.REFLEX_SKIP_COMPILE.set(True)
    reflex_exec.notify_app_running()
    reflex_exec.run_backend_prod(config.backend_host, port, config.loglevel.subprocess_level(), mount_frontend_compiled_app=True)


if __name__ == "__main__":
    main(sys.argv[1:])
