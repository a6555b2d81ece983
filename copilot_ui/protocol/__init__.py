"""AG-UI on the wire: events parsed, verified and applied to a thread. No Reflex here."""

from ..errors import FrameTooLarge, ProtocolError
from ._apply import EventApplier, EventPipeline
from ._chunks import ChunkExpander
from ._parse import EventParser, parse_event
from ._predict_state import PREDICT_STATE, StatePrediction
from ._replay import read_frames, replay
from ._rules import Rule
from ._sse import DEFAULT_MAX_FRAME_CHARS, SSEFrames
from ._thread import AGUIThread, RunOutcome, new_id
from ._verify import SequenceVerifier

Thread = AGUIThread  # its former name (copilot_ui.core.Thread, the loop's, extends it): kept for code importing it

__all__ = [
    "DEFAULT_MAX_FRAME_CHARS",
    "PREDICT_STATE",
    "AGUIThread",
    "ChunkExpander",
    "EventApplier",
    "EventParser",
    "EventPipeline",
    "FrameTooLarge",
    "ProtocolError",
    "Rule",
    "RunOutcome",
    "SSEFrames",
    "SequenceVerifier",
    "StatePrediction",
    "new_id",
    "parse_event",
    "read_frames",
    "replay",
]
