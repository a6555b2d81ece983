// Where focus goes when the approval dialog closes. Radix gives it back to the dialog's trigger, and this
// dialog has none (it opens by itself), so focus would fall to <body>. Left undecided (Escape, "Not now"), it
// goes to the card's Review button, where the person picks the call up again; otherwise, or when the card
// has no such button, to the message box.
import { useEffect, useRef } from "react";

const GONE_WITHIN = 2000; // ms: the dialog's closing animation, at most

export function CuiApprovalFocus({ open = false, undecided = "" }) {
  const wasOpen = useRef(open);
  useEffect(() => {
    const closed = wasOpen.current && !open;
    wasOpen.current = open;
    if (!closed) return undefined;
    const since = performance.now();
    let frame = 0;
    // Radix traps focus in the dialog until it is gone: wait for that, then place focus if nothing has it.
    const place = () => {
      if (document.querySelector('[role="alertdialog"]') && performance.now() - since < GONE_WITHIN) {
        frame = requestAnimationFrame(place);
      } else if (lost(document.activeElement)) {
        (reviewButton(undecided) ?? document.getElementById("cui-message"))?.focus();
      }
    };
    frame = requestAnimationFrame(place);
    return () => cancelAnimationFrame(frame);
  }, [open, undecided]);
  return null;
}

// Focus that nobody holds: a click or a decision elsewhere already placed it otherwise.
const lost = (element) => !element || element === document.body || !element.isConnected;

const reviewButton = (item) => (item ? document.querySelector(`[data-item="${CSS.escape(item)}"] .cui-review`) : null);
