"""From loop events to what a tab shows (the third layer of the Reflex binding): a turn's sink buffers what its run
loop emits and sends it to the tab at a bounded pace, through the `show` the tab gives it."""

from ._outgoing import BrowserEvent, Send, Show, ViewUpdate, append_script, script_event
from ._sink import ViewSink

__all__ = ["BrowserEvent", "Send", "Show", "ViewSink", "ViewUpdate", "append_script", "script_event"]
