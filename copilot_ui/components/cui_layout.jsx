// Where the copilot sits on the page, handled in the browser (no round trip for a layout change):
// the docked sidebar (collapsible, resizable, its width remembered; a button opening it full screen on a
// narrow screen), the popup (a corner button that opens a panel; Escape closes it), the keyboard shortcut that
// opens the copilot, Up-arrow in an empty message box, and the small actions of a message (copy, edit,
// regenerate, the ratings).
import React, { Children, useCallback, useEffect, useRef, useState } from "react";

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

// The page's icons for this component come as children marked data-icon; the other children are its content.
const splitIcons = (children) => {
  const icons = {};
  const content = [];
  Children.toArray(children).forEach((child) => {
    const name = child?.props?.["data-icon"];
    if (name) icons[name] = child;
    else content.push(child);
  });
  return [icons, content];
};

const focusMessageBox = () => setTimeout(() => document.getElementById("cui-message")?.focus(), 0);

// "mod+/", "ctrl+shift+k": mod is Ctrl, or ⌘ on a Mac (either is taken, as people press both).
const matches = (shortcut, event) => {
  const parts = String(shortcut || "").toLowerCase().split("+").filter(Boolean);
  if (String(shortcut).endsWith("++")) parts.push("+");
  const key = parts.pop();
  if (!key) return false;
  const wants = (name) => parts.includes(name);
  const mod = wants("mod");
  if (mod ? !(event.ctrlKey || event.metaKey) : event.ctrlKey !== (wants("ctrl") || wants("control"))) return false;
  if (!mod && event.metaKey !== (wants("meta") || wants("cmd"))) return false;
  if (event.altKey !== wants("alt")) return false;
  if (wants("shift") && !event.shiftKey) return false;
  const pressed = (event.key || "").toLowerCase();
  return pressed === key || event.code === (key.length === 1 && /[a-z]/.test(key) ? `Key${key.toUpperCase()}` : "") ||
    (key === "/" && event.code === "Slash") || (key === "." && event.code === "Period");
};

// The shortcut, wherever focus is on the page: `open` shows the copilot and puts the cursor in its message box.
const useShortcut = (shortcut, open) => {
  useEffect(() => {
    if (!shortcut) return undefined;
    const onKey = (event) => {
      if (!matches(shortcut, event)) return;
      event.preventDefault();
      open();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shortcut, open]);
};

// The inline chat: it is always shown, so the shortcut only puts the cursor in its message box.
export function CuiShortcut({ shortcut = "mod+/" }) {
  useShortcut(shortcut, focusMessageBox);
  return null;
}

// Up-arrow in the empty message box edits the person's last message (as its Edit action does).
export function CuiRecall() {
  useEffect(() => {
    const onKey = (event) => {
      const box = event.target;
      if (event.key !== "ArrowUp" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      if (!box || box.id !== "cui-message" || box.value !== "") return;
      const edits = document.querySelectorAll(".cui-turn-user [data-action='edit']");
      const last = edits[edits.length - 1];
      if (!last) return;
      event.preventDefault();
      last.click();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return null;
}

// Commands from the copilot's own buttons (header): window.dispatchEvent(new CustomEvent("cui-layout", {detail}))
const useCommands = (open, close) => {
  useEffect(() => {
    const listener = (event) => (event.detail === "open" ? open() : event.detail === "close" ? close() : null);
    window.addEventListener("cui-layout", listener);
    return () => window.removeEventListener("cui-layout", listener);
  }, [open, close]);
};

export function CuiDock({
  title = "Copilot",
  width = 384,
  storageKey = "cui-sidebar",
  openLabel = "Open the copilot",
  resizeLabel = "Resize the copilot",
  shortcut = "mod+/",
  shortcutKeys = "",
  openTitle = "",
  children,
}) {
  const [icons, content] = splitIcons(children);
  const narrow = useNarrow();
  const [collapsed, setCollapsed] = useState(false);
  const [openOnNarrow, setOpenOnNarrow] = useState(false);
  const [size, setSize] = useState(width);
  const opener = useRef(null);
  const refocus = useRef(false); // closed by the person: the opener takes focus once it is drawn

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
      else refocus.current = true;
    },
    [narrow, storageKey],
  );
  const open = useCallback(() => show(true), [show]);
  const close = useCallback(() => show(false), [show]);

  useCommands(open, close);
  useShortcut(shortcut, open);

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
  useEffect(() => {
    if (shown || !refocus.current) return;
    refocus.current = false;
    opener.current?.focus();
  }, [shown]);
  return (
    <>
      {!shown && (
        <button
          ref={opener}
          type="button"
          className="cui-dock-open"
          data-narrow={narrow}
          onClick={open}
          aria-keyshortcuts={shortcutKeys || undefined}
          title={openTitle || openLabel}
        >
          {icons.open ?? <span aria-hidden="true">✦</span>} {title}
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
            aria-label={resizeLabel}
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
        {content}
      </aside>
    </>
  );
}

export function CuiPopup({
  title = "Copilot",
  openLabel = "Open the copilot",
  closeLabel = "Close the copilot",
  shortcut = "mod+/",
  shortcutKeys = "",
  openTitle = "",
  closeTitle = "",
  children,
}) {
  const [icons, content] = splitIcons(children);
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
  useShortcut(shortcut, show);
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
        aria-label={open ? closeLabel : openLabel}
        aria-keyshortcuts={shortcutKeys || undefined}
        title={(open ? closeTitle : openTitle) || undefined}
        onClick={() => (open ? close() : show())}
      >
        {open ? (icons.close ?? <span aria-hidden="true">×</span>) : (icons.open ?? <span aria-hidden="true">✦</span>)}
      </button>
      <section role="dialog" aria-modal="false" aria-label={title} className="cui-popup-panel" hidden={!open}>
        {content}
      </section>
    </>
  );
}

// A message's actions, as icon buttons named for what they do (their tooltip says it too): copy it; edit one of the
// person's (the new text replaces it and what followed); regenerate the last reply; rate a reply (Good response /
// Bad response, with an optional comment on Bad). The icons come from the page as children marked data-icon.
const DEFAULT_WORDS = {
  copy: "Copy message",
  copied: "Copied",
  edit: "Edit message",
  editBox: "Edit your message",
  cancel: "Cancel",
  send: "Send",
  regenerate: "Regenerate",
  good: "Good response",
  bad: "Bad response",
  comment: "What was wrong? (optional)",
  sendFeedback: "Send feedback",
  thanks: "Thanks for your feedback",
};

const iconsOf = (children) => {
  const icons = {};
  Children.toArray(children).forEach((child) => {
    const name = child?.props?.["data-icon"];
    if (name) icons[name] = child;
  });
  return icons;
};

const IconAction = ({ label, tip, icon, className = "", ...props }) => (
  <button type="button" className={`cui-icon-action ${className}`} aria-label={label} {...props}>
    {icon}
    <span className="cui-tip" aria-hidden="true">
      {tip ?? label}
    </span>
  </button>
);

export function CuiActions({
  tid,
  itemId,
  canEdit = false,
  onEdit,
  canRegenerate = false,
  onRegenerate,
  rateable = false,
  rating = "",
  onRate,
  words = {},
  children,
}) {
  const say = { ...DEFAULT_WORDS, ...words };
  const icons = iconsOf(children);
  const [copied, setCopied] = useState(false);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState("");
  const [thanked, setThanked] = useState(false);
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
  const rate = (value) => {
    if (onRate) onRate({ item: itemId, rating: value, comment: "" });
    setCommenting(value === "bad");
    setThanked(value === "good");
  };
  const sendComment = (event) => {
    event.preventDefault();
    if (onRate && comment.trim()) onRate({ item: itemId, rating: "bad", comment });
    setCommenting(false);
    setComment("");
    setThanked(true);
  };
  if (editing) {
    return (
      <form className="cui-edit" onSubmit={send}>
        <textarea
          className="cui-input"
          aria-label={say.editBox}
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
            {say.cancel}
          </button>
          <button type="submit" className="cui-action cui-action-primary">
            {say.send}
          </button>
        </div>
      </form>
    );
  }
  return (
    <>
      <div className="cui-actions" data-rated={rating ? "true" : "false"}>
        <IconAction label={say.copy} tip={copied ? say.copied : say.copy} icon={copied ? icons.copied : icons.copy} onClick={copy} />
        {canEdit && <IconAction label={say.edit} icon={icons.edit} onClick={startEdit} data-action="edit" />}
        {canRegenerate && <IconAction label={say.regenerate} icon={icons.regenerate} onClick={() => onRegenerate?.()} />}
        {rateable && (
          <>
            <IconAction
              label={say.good}
              icon={icons.good}
              aria-pressed={rating === "good"}
              className="cui-rate"
              onClick={() => rate("good")}
            />
            <IconAction
              label={say.bad}
              icon={icons.bad}
              aria-pressed={rating === "bad"}
              className="cui-rate"
              onClick={() => rate("bad")}
            />
          </>
        )}
        {thanked && !commenting && (
          <span className="cui-thanks" role="status">
            {say.thanks}
          </span>
        )}
      </div>
      {commenting && (
        <form className="cui-feedback" onSubmit={sendComment}>
          <textarea
            className="cui-input"
            aria-label={say.comment}
            placeholder={say.comment}
            value={comment}
            autoFocus
            rows={2}
            onChange={(event) => setComment(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") setCommenting(false);
            }}
          />
          <div className="cui-edit-buttons">
            <button type="button" className="cui-action" onClick={() => setCommenting(false)}>
              {say.cancel}
            </button>
            <button type="submit" className="cui-action cui-action-primary">
              {say.sendFeedback}
            </button>
          </div>
        </form>
      )}
    </>
  );
}
