// Where the copilot sits on the page, handled in the browser (no round trip for a layout change):
// the docked sidebar (collapsible, resizable, its width remembered; a button opening it full screen on a
// narrow screen), the popup (a corner button that opens a panel; Escape closes it), and the small
// actions of a message (copy, edit).
import React, { useCallback, useEffect, useRef, useState } from "react";

const NARROW = "(max-width: 640px)";
const MIN_WIDTH = 280;
const MAX_WIDTH = 760;

const useNarrow = () => {
  const [narrow, setNarrow] = useState(false); // as the page was rendered ahead of time; the effect tells the truth
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const change = () => setNarrow(query.matches);
    query.addEventListener("change", change);
    change();
    return () => query.removeEventListener("change", change);
  }, []);
  return narrow;
};

const remembered = (key, fallback) => {
  try {
    const value = window.localStorage.getItem(key);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
};

const remember = (key, value) => {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode, full storage: the layout still works, it is just not remembered
  }
};

const focusMessageBox = () => setTimeout(() => document.getElementById("cui-message")?.focus(), 0);

// Commands from the copilot's own buttons (header): window.dispatchEvent(new CustomEvent("cui-layout", {detail}))
const useCommands = (open, close) => {
  useEffect(() => {
    const listener = (event) => (event.detail === "open" ? open() : event.detail === "close" ? close() : null);
    window.addEventListener("cui-layout", listener);
    return () => window.removeEventListener("cui-layout", listener);
  }, [open, close]);
};

export function CuiDock({ title = "Copilot", width = 384, storageKey = "cui-sidebar", children }) {
  const narrow = useNarrow();
  const [collapsed, setCollapsed] = useState(false);
  const [openOnNarrow, setOpenOnNarrow] = useState(false);
  const [size, setSize] = useState(width);
  const opener = useRef(null);

  useEffect(() => {
    setCollapsed(remembered(`${storageKey}:collapsed`, false));
    setSize(remembered(`${storageKey}:width`, width));
  }, [storageKey, width]);

  // Open or close (remembered, except on a narrow screen); focus goes to the message box, or back to the opener.
  const show = useCallback(
    (shown) => {
      if (narrow) setOpenOnNarrow(shown);
      else {
        setCollapsed(!shown);
        remember(`${storageKey}:collapsed`, !shown);
      }
      if (shown) focusMessageBox();
      else setTimeout(() => opener.current?.focus(), 0);
    },
    [narrow, storageKey],
  );
  const open = useCallback(() => show(true), [show]);
  const close = useCallback(() => show(false), [show]);

  useCommands(open, close);

  // A new width, kept within bounds and remembered.
  const bounded = (width) => {
    const next = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width));
    remember(`${storageKey}:width`, next);
    return next;
  };
  const resizeBy = (pixels) => setSize((current) => bounded(current + pixels));

  const startDrag = (event) => {
    event.preventDefault();
    const startX = event.clientX;
    const startSize = size;
    const move = (moved) => setSize(bounded(startSize + (startX - moved.clientX)));
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };

  const shown = narrow ? openOnNarrow : !collapsed;
  return (
    <>
      {!shown && (
        <button ref={opener} type="button" className="cui-dock-open" data-narrow={narrow} onClick={open}>
          <span aria-hidden="true">✦</span> {title}
        </button>
      )}
      <aside
        aria-label={title}
        className="cui-sidebar"
        data-narrow={narrow ? "true" : "false"}
        hidden={!shown}
        style={narrow ? undefined : { width: `${size}px` }}
      >
        {!narrow && (
          <div
            className="cui-resize"
            role="separator"
            aria-orientation="vertical"
            aria-label={`Resize the ${title.toLowerCase()}`}
            aria-valuenow={size}
            aria-valuemin={MIN_WIDTH}
            aria-valuemax={MAX_WIDTH}
            tabIndex={0}
            onPointerDown={startDrag}
            onKeyDown={(event) => {
              if (event.key === "ArrowLeft") resizeBy(16);
              if (event.key === "ArrowRight") resizeBy(-16);
            }}
          />
        )}
        {children}
      </aside>
    </>
  );
}

export function CuiPopup({ title = "Copilot", children }) {
  const [open, setOpen] = useState(false);
  const launcher = useRef(null);
  const close = useCallback(() => {
    setOpen(false);
    setTimeout(() => launcher.current?.focus(), 0);
  }, []);
  const show = useCallback(() => {
    setOpen(true);
    focusMessageBox();
  }, []);
  useCommands(show, close);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event) => {
      // Escape closes the popup, unless a dialog above it takes the key first.
      if (event.key === "Escape" && !document.querySelector('[role="alertdialog"]')) close();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, close]);
  return (
    <>
      <button
        ref={launcher}
        type="button"
        className="cui-popup-launcher"
        aria-expanded={open}
        aria-label={open ? `Close the ${title.toLowerCase()}` : `Open the ${title.toLowerCase()}`}
        onClick={() => (open ? close() : show())}
      >
        <span aria-hidden="true">{open ? "×" : "✦"}</span>
      </button>
      <section role="dialog" aria-modal="false" aria-label={title} className="cui-popup-panel" hidden={!open}>
        {children}
      </section>
    </>
  );
}

// Copy a message; edit one of the person's (the new text replaces it and what followed).
export function CuiActions({ tid, canEdit = false, onEdit, itemId }) {
  const [copied, setCopied] = useState(false);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const copy = async () => {
    const text = window.__cuiText?.(tid) ?? "";
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  const startEdit = () => {
    setDraft(window.__cuiText?.(tid) ?? "");
    setEditing(true);
  };
  const send = (event) => {
    event.preventDefault();
    if (draft.trim() && onEdit) onEdit({ item: itemId, message: draft });
    setEditing(false);
    focusMessageBox();
  };
  if (editing) {
    return (
      <form className="cui-edit" onSubmit={send}>
        <textarea
          className="cui-input"
          aria-label="Edit your message"
          value={draft}
          autoFocus
          rows={3}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) send(event);
            if (event.key === "Escape") setEditing(false);
          }}
        />
        <div className="cui-edit-buttons">
          <button type="button" className="cui-action" onClick={() => setEditing(false)}>
            Cancel
          </button>
          <button type="submit" className="cui-action cui-action-primary">
            Send
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="cui-actions">
      <button type="button" className="cui-action" aria-label="Copy message" onClick={copy}>
        {copied ? "Copied" : "Copy"}
      </button>
      {canEdit && (
        <button type="button" className="cui-action" aria-label="Edit message" onClick={startEdit}>
          Edit
        </button>
      )}
    </div>
  );
}
