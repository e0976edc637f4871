import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import type { RequestTab } from '../../store/requests';
import { tabKeyTarget } from '../shell/shortcuts';
import './request-tabs.css';

/**
 * The tab list "Requests" above a protocol tab's composer: each open request of the protocol, a dot for unsent
 * changes, × to close (undoable), double-click or F2 to rename, "New request" and a "⋯" menu for the rest. The ×
 * is no focusable button (a tab holds no focusable content, WCAG 4.1.2 / axe nested-interactive): the keyboard
 * closes with Ctrl/Cmd+W, Delete on the tab, or the menu.
 */
export function RequestTabs({ protocol }: { protocol: ProtocolId }) {
  const tabs = useAppStore((s) => s.requests[protocol].tabs);
  const activeId = useAppStore((s) => s.requests[protocol].activeId);
  const selected = useAppStore((s) => s.requestSelected);
  const closed = useAppStore((s) => s.requestClosed);
  const opened = useAppStore((s) => s.requestOpened);
  const [renaming, setRenaming] = useState<string>();
  const list = useRef<HTMLDivElement>(null);

  // The tab on view scrolls into sight (a new or reopened request lands at the end of a long strip).
  useEffect(() => {
    list.current
      ?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeId, tabs.length]);

  /** WAI-ARIA tabs: arrows move the focus and the selection (roving tabindex); F2 renames, Delete closes. */
  const onKey = (e: KeyboardEvent<HTMLElement>, tab: RequestTab) => {
    if (e.key === 'F2') {
      e.preventDefault();
      setRenaming(tab.id);
      return;
    }
    if (e.key === 'Delete') {
      e.preventDefault();
      closed(protocol, tab.id);
      return;
    }
    const to = tabKeyTarget(
      e.key,
      tabs.findIndex((t) => t.id === tab.id),
      tabs.length,
    );
    if (to === undefined) return;
    e.preventDefault();
    selected(protocol, tabs[to].id);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[to]?.focus();
  };

  return (
    <>
      <div className="requests-bar">
        <div className="request-tabs" role="tablist" aria-label="Requests" ref={list}>
          {tabs.map((t) =>
            renaming === t.id ? (
              <RenameField
                key={t.id}
                name={t.name}
                onDone={(name) => {
                  setRenaming(undefined);
                  if (name !== undefined) useAppStore.getState().requestRenamed(protocol, t.id, name);
                  requestAnimationFrame(() =>
                    list.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus(),
                  );
                }}
              />
            ) : (
              <div
                key={t.id}
                role="tab"
                className={`request-tab${t.id === activeId ? ' selected' : ''}${t.unsent ? ' unsent' : ''}`}
                aria-selected={t.id === activeId}
                aria-labelledby={`request-name-${t.id}`}
                aria-description={t.unsent ? 'unsent changes' : undefined}
                aria-keyshortcuts="F2 Delete"
                title={t.unsent ? `${t.name} — unsent changes` : t.name}
                tabIndex={t.id === activeId ? 0 : -1}
                onClick={() => selected(protocol, t.id)}
                onDoubleClick={() => setRenaming(t.id)}
                onKeyDown={(e) => onKey(e, t)}
              >
                <span className="request-name" id={`request-name-${t.id}`}>
                  {t.name}
                </span>
                <span className="request-dot" aria-hidden="true" />
                <span
                  role="button"
                  className="request-close"
                  aria-label={`Close ${t.name}`}
                  title={`Close ${t.name} (Ctrl/Cmd+W)`}
                  onClick={(e) => {
                    e.stopPropagation();
                    closed(protocol, t.id);
                  }}
                />
              </div>
            ),
          )}
        </div>
        <button
          type="button"
          className="ghost small request-new"
          aria-label="New request"
          aria-keyshortcuts="Control+T"
          title="New request (Ctrl/Cmd+T)"
          onClick={() => opened(protocol)}
        >
          +
        </button>
        <RequestMenu protocol={protocol} onRename={() => setRenaming(activeId)} />
      </div>
      <ClosedNotice protocol={protocol} />
    </>
  );
}

/** The inline name field: Enter saves, Escape (or leaving it) cancels. */
function RenameField({ name, onDone }: { name: string; onDone: (name?: string) => void }) {
  const [value, setValue] = useState(name);
  const done = useRef(false);
  const finish = (next?: string) => {
    if (done.current) return;
    done.current = true;
    onDone(next);
  };
  return (
    <input
      className="request-rename"
      aria-label="Request name"
      value={value}
      autoFocus
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => finish()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(value);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          finish();
        }
      }}
    />
  );
}

/** "⋯": Rename, Duplicate, Close and Reopen for the request on view, by keyboard as well as by mouse. */
function RequestMenu({ protocol, onRename }: { protocol: ProtocolId; onRename: () => void }) {
  const activeId = useAppStore((s) => s.requests[protocol].activeId);
  const canReopen = useAppStore((s) => s.requests[protocol].closed.length > 0);
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const act = (fn: () => void) => () => {
    setOpen(false);
    fn();
  };
  const s = useAppStore.getState;
  const items: [string, () => void, boolean?][] = [
    ['Rename', onRename],
    ['Duplicate', () => s().requestDuplicated(protocol, activeId)],
    ['Close', () => s().requestClosed(protocol, activeId)],
    ['Reopen closed request', () => s().requestReopened(protocol), !canReopen],
  ];
  return (
    <div className="request-menu-wrap">
      <button
        ref={button}
        type="button"
        className="ghost small"
        aria-label="Request actions"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div
          className="request-menu"
          role="menu"
          aria-label="Request actions"
          ref={menu}
          onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}
          onKeyDown={(e) => {
            const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? [])];
            const at = items.indexOf(document.activeElement as HTMLElement);
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
            } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
            }
          }}
        >
          {items.map(([label, fn, disabled]) => (
            <button key={label} type="button" role="menuitem" disabled={disabled} onClick={act(fn)}>
              {label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** After a close: the undo bar, as the composer's "Last change" is shown, with "Reopen closed request". */
function ClosedNotice({ protocol }: { protocol: ProtocolId }) {
  const count = useAppStore((s) => s.requests[protocol].closed.length);
  const last = useAppStore((s) => s.requests[protocol].closed.at(-1)?.tab.name);
  const reopened = useAppStore((s) => s.requestReopened);
  // Closes seen before (on another visit of this tab, or dismissed) are not announced again.
  const [seen, setSeen] = useState(count);
  // Requests reopened by the menu or Ctrl/Cmd+Shift+T: what is left was seen already.
  if (count < seen) setSeen(count);
  if (count <= seen) return null;
  return (
    <p className="composer-note request-closed" role="status" aria-label="Closed request">
      <span>Closed “{last}”.</span>
      <button
        type="button"
        className="small"
        aria-keyshortcuts="Control+Shift+T"
        title="Ctrl/Cmd+Shift+T"
        onClick={() => {
          setSeen(count - 1);
          reopened(protocol);
        }}
      >
        Reopen closed request
      </button>
      <button type="button" className="ghost small" aria-label="Dismiss closed request" onClick={() => setSeen(count)}>
        ×
      </button>
    </p>
  );
}
