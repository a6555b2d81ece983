"""TEMPORARY until the core refactor lands."""
from dataclasses import dataclass
from ..core import LoopEvent
import copilot_ui.core as core

def _get(name, fields):
    if hasattr(core, name):
        return getattr(core, name)
    return dataclass(frozen=True)(type(name, (LoopEvent,), {"__annotations__": fields}))

ReasoningStarted = _get("ReasoningStarted", {"message_id": str})
ReasoningDelta = _get("ReasoningDelta", {"message_id": str, "delta": str})
ReasoningEnded = _get("ReasoningEnded", {"message_id": str})
UserMessageAdded = _get("UserMessageAdded", {"message_id": str, "text": str, "queued": bool})

import inspect as _inspect

try:
    from ..core._claims import Claim, claims  # noqa: F401
except ImportError:
    class Claim:
        def __init__(self, registry, thread_id):
            self._registry, self.thread_id = registry, thread_id
        def release(self):
            self._registry.discard(self.thread_id)

    class _Claims:
        def __init__(self):
            self._held = set()
        def claim(self, thread_id):
            if thread_id in self._held:
                return None
            self._held.add(thread_id)
            return Claim(self._held, thread_id)

    claims = _Claims()

from ..core import RunLoop as _RunLoop

if "message_id" in _inspect.signature(_RunLoop.send).parameters:
    RunLoop = _RunLoop
else:
    class RunLoop(_RunLoop):
        async def send(self, thread, text, message_id=None):
            from ..core._loop import _call_emit
            await _call_emit(self.emit, UserMessageAdded(message_id or "", text, False))
            await self._skip_waiting_calls(thread, "the user did not answer and wrote a new message instead")
            thread.add_user_message(text, message_id)
            thread.start_turn()
            return await _RunLoop.drive(self, thread)
        def queue(self, thread, text, message_id=None):
            self._turn.queued.append(text)
            self._turn.wake.set()
        async def drive(self, thread, claim=None):
            return await _RunLoop.drive(self, thread)
        async def retry(self, thread):
            thread.turn.follow_up_due = True
            return await _RunLoop.drive(self, thread)
