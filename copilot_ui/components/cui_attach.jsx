// The composer's files, in the browser: taken by the paperclip, by a drop anywhere on the copilot's panel and by a
// paste (an image from the clipboard); each uploaded at once to the attachment endpoint over HTTP (never through the
// state's websocket), shown as a thumbnail or a chip until the message goes, and named to the server by id (a hidden
// field of the form). A file refused (its type, its size, too many) is named with the reason; nothing typed is lost.
// CuiFiles draws the files of a sent message. File names are shown as text; images only through <img>.
import React, { useCallback, useEffect, useRef, useState } from "react";
import { getBackendURL } from "$/utils/state";

const STYLE = `
.cui-composer:has(.cui-attach-tray) { flex-wrap: wrap; }
.cui-attach-tray { order: -1; flex: 1 0 100%; display: flex; flex-direction: column; gap: 0.35rem; }
.cui-attach-files { display: flex; flex-wrap: wrap; gap: 0.4rem; list-style: none; margin: 0; padding: 0; }
.cui-attach-file { position: relative; display: flex; align-items: center; gap: 0.35rem; max-width: 14rem;
  padding: 0.25rem 0.35rem; border: 1px solid var(--gray-a6); border-radius: var(--radius-3); background: var(--gray-a2);
  font-size: 0.8rem; color: var(--gray-12); }
.cui-attach-file img { width: 3rem; height: 3rem; object-fit: cover; border-radius: var(--radius-2); display: block; }
.cui-attach-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cui-attach-size { color: var(--gray-11); white-space: nowrap; }
.cui-attach-remove { border: none; background: none; cursor: pointer; color: var(--gray-11); padding: 0.1rem 0.3rem;
  font-size: 1rem; line-height: 1; border-radius: var(--radius-2); min-width: 1.5rem; min-height: 1.5rem; }
.cui-attach-remove:hover, .cui-attach-remove:focus-visible { color: var(--gray-12); background: var(--gray-a4); }
.cui-attach-refused { margin: 0; padding: 0; list-style: none; color: var(--red-11); font-size: 0.8rem; }
.cui-attach-button { align-self: flex-end; display: inline-flex; align-items: center; justify-content: center;
  width: 2.25rem; height: 2.25rem; border-radius: var(--radius-3); border: 1px solid var(--gray-a7);
  background: var(--color-panel-solid); color: var(--gray-12); cursor: pointer; }
.cui-attach-button:hover:enabled { background: var(--gray-a3); }
.cui-attach-button:disabled { cursor: default; opacity: 0.55; }
.cui-attach-button:focus-visible { outline: 2px solid var(--accent-8); outline-offset: 1px; }
.cui-drop-target { outline: 2px dashed var(--accent-8); outline-offset: -4px; }
.cui-sent-files { display: flex; flex-wrap: wrap; gap: 0.4rem; justify-content: flex-end; list-style: none;
  margin: 0.3rem 0 0; padding: 0; }
.cui-sent-files img { max-width: 10rem; max-height: 8rem; border-radius: var(--radius-3); display: block;
  border: 1px solid var(--gray-a6); }
.cui-sent-file { display: inline-flex; gap: 0.35rem; align-items: center; padding: 0.25rem 0.5rem; max-width: 14rem;
  border: 1px solid var(--gray-a6); border-radius: var(--radius-3); font-size: 0.8rem; color: var(--gray-12);
  text-decoration: none; background: var(--color-panel-solid); }
`;

// A size as people read it, in the layout's words (as copilot_ui.core.size_text writes it): 34 KB, 12.4 MB.
export const sizeText = (size, words = {}) => {
  if (typeof size !== "number") return String(size ?? "");
  if (size === 1) return said(words, "one_byte", "1 byte", { count: 1 });
  if (size < 1000) return said(words, "bytes_size", "{count} bytes", { count: size });
  if (size < 1e6) return said(words, "kilobytes", "{size} KB", { size: Math.max(1, Math.round(size / 1000)) });
  const mb = size / 1e6;
  const shown = mb >= 100 || mb === Math.floor(mb) ? `${Math.round(mb)}` : (Math.floor(mb * 10) / 10).toFixed(1);
  return said(words, "megabytes", "{size} MB", { size: shown });
};

const shownName = (name) => {
  const cleaned = Array.from(name || "").filter((ch) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(ch)).join("").trim() || "file";
  if (cleaned.length <= 120) return cleaned;
  const dot = cleaned.lastIndexOf("."); // a shortened name keeps its extension, as the server keeps it (shown_name)
  const extension = dot >= 0 && dot >= cleaned.length - 10 ? cleaned.slice(dot) : "";
  return `${cleaned.slice(0, 119 - extension.length)}…${extension}`;
};

// A word of the copilot's labels (`words`, from cui.Labels), its {placeholders} filled.
function said(words, key, fallback, values = {}) {
  return String((words && words[key]) || fallback).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// A refusal's fields that are sizes in bytes (as copilot_ui.core.SIZE_FIELDS names them).
const SIZE_FIELDS = ["size", "limit", "held"];

// Why the server refused a file: in this layout's words when it has the reason's label, else as the server said it.
const refusalText = (words, answer) => {
  const refusal = answer && answer.refusal;
  const worded = refusal && words && Object.hasOwn(words, String(refusal.key)) && typeof words[refusal.key] === "string";
  if (!worded) return answer && answer.error;
  const fields = { ...(refusal.fields || {}) };
  for (const name of SIZE_FIELDS) if (name in fields) fields[name] = sizeText(fields[name], words);
  return said(words, refusal.key, "", fields);
};

export const fileURL = (path, id, grant) =>
  `${new URL(path, getBackendURL()).href}/${encodeURIComponent(id)}?grant=${encodeURIComponent(grant)}`;

const Style = () => <style>{STYLE}</style>;

const PaperclipIcon = () => (
  <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"
    strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48" />
  </svg>
);


export function CuiAttach({
  path = "", grant = "", readGrant = "", renewIn = 0, thread = "", accept = "", maxFileBytes = 10e6, maxFiles = 5,
  words = {}, onRenew,
}) {
  const [files, setFiles] = useState([]); // {key, name, size, image, id?, uploading}
  const [refused, setRefused] = useState([]);
  const anchor = useRef(null);
  const picker = useRef(null);
  const early = useRef([]); // files taken before the tab had its grant (just after a load): uploaded once it has
  const latest = useRef({ files, path, grant, thread, onRenew, words });
  latest.current = { files, path, grant, thread, onRenew, words };

  // No grant: the page just loaded, or the server lost the tab's state (a restart) and the tab reconnected.
  useEffect(() => {
    if (!grant && onRenew) onRenew();
  }, [grant]);

  // The server asks for new grants (a message could not take files uploaded under another owner's grant).
  useEffect(() => {
    const renew = () => latest.current.onRenew?.();
    window.addEventListener("cui-renew-grants", renew);
    return () => window.removeEventListener("cui-renew-grants", renew);
  }, []);

  // Grants expire: new ones before, so that a tab left open keeps taking and showing files.
  useEffect(() => {
    if (!grant || !renewIn || !onRenew) return undefined;
    const timer = setTimeout(() => onRenew(), renewIn * 1000);
    return () => clearTimeout(timer);
  }, [grant, renewIn]);

  const take = useCallback(
    (chosen) => {
      const { path, grant, thread, files } = latest.current;
      if (!path || !grant) {
        early.current.push(...chosen);
        return;
      }
      const reasons = [];
      let count = files.length;
      for (const file of chosen) {
        const name = shownName(file.name);
        if (file.size > maxFileBytes) {
          const words = latest.current.words;
          reasons.push(said(words, "file_too_big", "{name} is {size}; the limit is {limit}", { name, size: sizeText(file.size, words), limit: sizeText(maxFileBytes, words) }));
          continue;
        }
        if (count >= maxFiles) {
          reasons.push(said(latest.current.words, "too_many_files", "{name}: a message takes at most {count} files", { name, count: maxFiles }));
          continue;
        }
        count += 1;
        const key = `${Date.now()}-${Math.random()}`;
        setFiles((now) => [...now, { key, name, size: file.size, image: (file.type || "").startsWith("image/"), uploading: true }]);
        const url = `${new URL(path, getBackendURL()).href}?grant=${encodeURIComponent(grant)}&thread=${encodeURIComponent(thread)}`;
        fetch(url, {
          method: "POST",
          body: file,
          headers: { "Content-Type": file.type || "application/octet-stream", "X-File-Name": encodeURIComponent(file.name || "file") },
        })
          .then(async (response) => {
            const answer = await response.json().catch(() => ({}));
            if (response.status === 403 && latest.current.onRenew) {
              latest.current.onRenew(); // the grant ran out (a tab asleep past its renewal): a new one for the next try
              throw new Error(said(latest.current.words, "upload_permission_renewed", "{name} was not uploaded: this page's permission to attach files had run out and is renewed now. Attach it again.", { name }));
            }
            if (!response.ok || !answer.id) throw new Error(refusalText(latest.current.words, answer) || said(latest.current.words, "upload_failed", "{name}: the upload failed ({status})", { name, status: response.status }));
            setFiles((now) => now.map((f) => (f.key === key ? { ...f, id: answer.id, image: answer.image, uploading: false } : f)));
          })
          .catch((error) => {
            setFiles((now) => now.filter((f) => f.key !== key));
            setRefused((now) => [...now, String(error.message || error)]);
          });
      }
      setRefused(reasons);
    },
    [maxFileBytes, maxFiles],
  );

  useEffect(() => {
    if (!path || !grant || !early.current.length) return;
    const chosen = early.current;
    early.current = [];
    take(chosen);
  }, [path, grant, take]);

  const remove = useCallback((file) => {
    setFiles((now) => now.filter((f) => f.key !== file.key));
    const { path, grant } = latest.current;
    if (file.id) fetch(fileURL(path, file.id, grant), { method: "DELETE" }).catch(() => {});
  }, []);

  useEffect(() => {
    const form = anchor.current?.closest("form");
    const panel = form?.closest(".cui-panel") || form;
    if (!form || !panel) return undefined;
    const hasFiles = (event) => Array.from(event.dataTransfer?.types || []).includes("Files");
    const onPaste = (event) => {
      const pasted = Array.from(event.clipboardData?.files || []);
      if (!pasted.length) return; // (before the tab has its grant, the files wait for it)
      event.preventDefault(); // a pasted image is a file, not text
      take(pasted);
    };
    const onDragOver = (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      panel.classList.add("cui-drop-target");
    };
    const onDragLeave = (event) => {
      if (!panel.contains(event.relatedTarget)) panel.classList.remove("cui-drop-target");
    };
    const onDrop = (event) => {
      panel.classList.remove("cui-drop-target");
      const dropped = Array.from(event.dataTransfer?.files || []);
      if (!dropped.length) return;
      event.preventDefault();
      take(dropped);
    };
    const onSubmit = (event) => {
      if (latest.current.files.some((f) => f.uploading)) {
        event.preventDefault(); // sent now, the message would go without the files still on their way
        event.stopPropagation();
        setRefused([said(latest.current.words, "wait_for_uploads", "Wait for the files to finish uploading, then send.")]);
        return;
      }
      setTimeout(() => {
        setFiles([]);
        setRefused([]);
      }, 0); // after the form's data is read: the ids go with this message
    };
    form.addEventListener("paste", onPaste);
    form.addEventListener("submit", onSubmit);
    panel.addEventListener("dragover", onDragOver);
    panel.addEventListener("dragleave", onDragLeave);
    panel.addEventListener("drop", onDrop);
    return () => {
      form.removeEventListener("paste", onPaste);
      form.removeEventListener("submit", onSubmit);
      panel.removeEventListener("dragover", onDragOver);
      panel.removeEventListener("dragleave", onDragLeave);
      panel.removeEventListener("drop", onDrop);
    };
  }, [take]);

  const uploaded = files.filter((f) => f.id);
  const ids = uploaded.map((f) => f.id).join(",");
  const names = JSON.stringify(uploaded.map((f) => f.name)); // a file the server cannot attach is named to the person
  return (
    <div className="cui-attach" style={{ display: "contents" }} ref={anchor}>
      <Style />
      <input type="hidden" name="attachments" value={ids} />
      <input type="hidden" name="attachment_names" value={names} />
      {/* The paperclip is there from the start (disabled until the tab has its grant): the message box beside it
          keeps its size when it comes. */}
      <input ref={picker} type="file" multiple accept={accept} hidden tabIndex={-1} aria-hidden="true"
        onChange={(event) => { take(Array.from(event.target.files || [])); event.target.value = ""; }} />
      <button type="button" className="cui-attach-button" aria-label={said(words, "attach_files", "Attach files")} title={said(words, "attach_files", "Attach files")}
        disabled={!path || !grant} onClick={() => picker.current?.click()}>
        <PaperclipIcon />
      </button>
      {files.length || refused.length ? (
        <div className="cui-attach-tray">
          {files.length ? (
            <ul className="cui-attach-files" aria-label={said(words, "attached_files", "Attached files")}>
              {files.map((file) => (
                <li key={file.key} className="cui-attach-file" data-uploading={file.uploading ? "true" : "false"}>
                  {file.image && file.id && readGrant ? <img src={fileURL(path, file.id, readGrant)} alt={file.name} /> : null}
                  <span className="cui-attach-name">{file.name}</span>
                  <span className="cui-attach-size">{file.uploading ? said(words, "uploading", "Uploading…") : sizeText(file.size, words)}</span>
                  <button type="button" className="cui-attach-remove" aria-label={said(words, "remove_file", "Remove {name}", { name: file.name })}
                    title={said(words, "remove_file", "Remove {name}", { name: file.name })} onClick={() => remove(file)}>×</button>
                </li>
              ))}
            </ul>
          ) : null}
          {refused.length ? (
            <ul className="cui-attach-refused" role="alert">
              {refused.map((reason, index) => <li key={index}>{reason}</li>)}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function CuiFiles({ files = [], path = "", grant = "", words = {} }) {
  if (!files || !files.length) return null;
  const served = Boolean(path && grant); // until the tab has its grant (just after a reload), names only
  return (
    <>
    <Style />
    <ul className="cui-sent-files" aria-label={said(words, "sent_files", "Files")}>
      {files.map((file) =>
        <li key={file.id}>
          {!served ? (
            <span className="cui-sent-file" data-file={file.n}>
              <span className="cui-attach-name">{file.n}</span>
              <span className="cui-attach-size">{sizeText(file.s, words)}</span>
            </span>
          ) : file.i ? (
            <a href={fileURL(path, file.id, grant)} target="_blank" rel="noopener noreferrer" title={file.n}>
              <img src={fileURL(path, file.id, grant)} alt={file.n} data-file={file.n} />
            </a>
          ) : (
            <a className="cui-sent-file" href={fileURL(path, file.id, grant)} download={file.n} data-file={file.n}>
              <span className="cui-attach-name">{file.n}</span>
              <span className="cui-attach-size">{sizeText(file.s, words)}</span>
            </a>
          )}
        </li>
      )}
    </ul>
    </>
  );
}
