"""The sidebar's styles, shipped with the component so an app needs no stylesheet of its own."""

SIDEBAR_CSS = """
.cui-sidebar { display: flex; flex-direction: column; height: 100vh; position: sticky; top: 0;
  border-left: 1px solid var(--gray-a5); background: var(--color-panel-solid); flex-shrink: 0; }
.cui-header { padding: 0.75rem 1rem; border-bottom: 1px solid var(--gray-a4); }
.cui-conversation { flex: 1; display: flex; flex-direction: column; gap: 0.6rem; padding: 1rem;
  overflow-y: auto; min-height: 0; }
.cui-welcome { margin: auto 0; text-align: center; }
.cui-user { align-self: flex-end; max-width: 85%; background: var(--accent-9); color: var(--accent-contrast);
  padding: 0.5rem 0.75rem; border-radius: 0.9rem 0.9rem 0.2rem 0.9rem; white-space: pre-wrap; word-break: break-word; }
.cui-reply { align-self: flex-start; max-width: 95%; color: var(--gray-12); line-height: 1.5; word-break: break-word; }
.cui-reply p { margin: 0 0 0.5rem 0; }
.cui-streaming { white-space: pre-wrap; }
.cui-tool-card { border: 1px solid var(--gray-a5); border-radius: 0.6rem; padding: 0.5rem 0.65rem;
  background: var(--gray-a2); display: flex; flex-direction: column; gap: 0.35rem; font-size: 0.85rem; }
.cui-tool-card pre { margin: 0; padding: 0.35rem 0.5rem; background: var(--gray-a3); border-radius: 0.4rem;
  white-space: pre-wrap; word-break: break-word; font-size: 0.78rem; max-height: 12rem; overflow: auto; }
.cui-status { padding-left: 0.1rem; }
.cui-composer { display: flex; gap: 0.5rem; align-items: flex-end; padding: 0.75rem 1rem;
  border-top: 1px solid var(--gray-a4); }
.cui-input { flex: 1; resize: none; font: inherit; padding: 0.5rem 0.65rem; border-radius: 0.5rem;
  border: 1px solid var(--gray-a7); background: var(--color-surface); color: var(--gray-12); min-height: 2.5rem; }
.cui-input:focus { outline: 2px solid var(--accent-8); outline-offset: 0; }
"""
