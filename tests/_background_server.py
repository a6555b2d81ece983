"""An ASGI app served by uvicorn on 127.0.0.1 in a background thread, for tests of every ring (no pytest here)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

START_TIMEOUT = 5.0  # seconds for uvicorn to start, and for it to stop


class BackgroundServer:
    """Serves an app on 127.0.0.1 from a daemon thread until stop(); port 0 picks a free port."""

    def __init__(self, app: Any, port: int = 0) -> None:
        self._socket = socket.socket()
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", port))
        self.port: int = self._socket.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"uvicorn did not start on 127.0.0.1:{self.port}")
            time.sleep(0.01)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop serving (open streams are cut after a second) and free the port."""
        self._server.should_exit = True
        self._thread.join(START_TIMEOUT)
        self._socket.close()
