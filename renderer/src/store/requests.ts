/**
 * The open requests of one protocol tab, as pure functions. The active request's state is the composer slice's
 * `composers[protocol]` (so every reader of the composer keeps working); the others wait in `stashed`, and a
 * switch swaps them. Each function takes the list and the active composer and returns both, changed.
 */
import type { ProtocolDrafts, RequestDraft } from '../../../shared/contract';
import { MAX_REQUEST_RUNS } from '../../../shared/contract';
import type { ComposerState } from './composer-slice';

export interface RequestTab {
  id: string;
  name: string;
  /** The body or the Message box changed since the last send. */
  unsent: boolean;
}

/** A closed request, for "Reopen closed request": its tab, its whole state and where it stood. */
export interface ClosedRequest {
  tab: RequestTab;
  state: ComposerState;
  index: number;
}

export interface ProtocolRequests {
  tabs: RequestTab[];
  activeId: string;
  /** The state of every open request but the active one. */
  stashed: Record<string, ComposerState>;
  /** Closed requests, last closed last (kept for this session only, like Undo). */
  closed: ClosedRequest[];
}

/** The list and the active request's state after a change. */
export interface RequestsAndActive {
  requests: ProtocolRequests;
  active: ComposerState;
}

/** How many closed requests "Reopen closed request" can bring back. */
export const MAX_CLOSED = 20;

let counter = 0;
/** A new request id, unique in this window and across restarts. */
export const newRequestId = (): string => `req-${Date.now().toString(36)}-${(counter++).toString(36)}`;

const numberOf = (name: string) => /^Request (\d+)$/.exec(name)?.[1];

/** "Request N", one past the highest number open or closed. */
export function nextRequestName(r: ProtocolRequests): string {
  const names = [...r.tabs.map((t) => t.name), ...r.closed.map((c) => c.tab.name)];
  const max = Math.max(0, ...names.map((n) => Number(numberOf(n) ?? 0)));
  return `Request ${max + 1}`;
}

/** One fresh request, the only tab. */
export function singleRequest(name = 'Request 1', id = newRequestId()): ProtocolRequests {
  return { tabs: [{ id, name, unsent: false }], activeId: id, stashed: {}, closed: [] };
}

const activeTab = (r: ProtocolRequests) => r.tabs.find((t) => t.id === r.activeId);

/** The state of request `id` (the active one's is `active`). */
export function stateOf(r: ProtocolRequests, active: ComposerState, id: string): ComposerState | undefined {
  return id === r.activeId ? active : r.stashed[id];
}

/** `r` with request `id` on view: the active state goes into the stash, `id`'s comes out. */
export function selectRequest(r: ProtocolRequests, active: ComposerState, id: string): RequestsAndActive {
  const next = r.stashed[id];
  if (id === r.activeId || !next) return { requests: r, active };
  const { [id]: _taken, ...rest } = r.stashed;
  return { requests: { ...r, activeId: id, stashed: { ...rest, [r.activeId]: active } }, active: next };
}

/** A new request `state` named `name`, placed after `after` (or last), and on view. */
export function openRequest(
  r: ProtocolRequests,
  active: ComposerState,
  state: ComposerState,
  name: string,
  after?: string,
): RequestsAndActive {
  const tab: RequestTab = { id: newRequestId(), name, unsent: false };
  const at = after ? r.tabs.findIndex((t) => t.id === after) + 1 : r.tabs.length;
  const tabs = [...r.tabs.slice(0, at || r.tabs.length), tab, ...r.tabs.slice(at || r.tabs.length)];
  const requests = { ...r, tabs, activeId: tab.id, stashed: { ...r.stashed, [r.activeId]: active } };
  return { requests, active: state };
}

/**
 * Closes request `id`, kept for Reopen. Closing the one on view shows its right neighbour (or its left); closing
 * the last one leaves `fresh` as a new "Request N", so a protocol tab never has none.
 */
export function closeRequest(
  r: ProtocolRequests,
  active: ComposerState,
  id: string,
  fresh: () => ComposerState,
): RequestsAndActive {
  const index = r.tabs.findIndex((t) => t.id === id);
  const state = stateOf(r, active, id);
  if (index < 0 || !state) return { requests: r, active };
  const closed = [...r.closed, { tab: r.tabs[index], state, index }].slice(-MAX_CLOSED);
  const tabs = r.tabs.filter((t) => t.id !== id);
  const { [id]: _gone, ...stashed } = r.stashed;
  if (id !== r.activeId) return { requests: { ...r, tabs, stashed, closed }, active };
  const neighbour = tabs[Math.min(index, tabs.length - 1)];
  if (!neighbour) {
    const only = singleRequest(nextRequestName({ ...r, tabs, closed }));
    return { requests: { ...only, closed }, active: fresh() };
  }
  const { [neighbour.id]: shown, ...others } = stashed;
  return { requests: { tabs, activeId: neighbour.id, stashed: others, closed }, active: shown };
}

/** The last closed request, back where it stood and on view; undefined when none was closed. */
export function reopenRequest(r: ProtocolRequests, active: ComposerState): RequestsAndActive | undefined {
  const last = r.closed.at(-1);
  if (!last) return undefined;
  const at = Math.min(last.index, r.tabs.length);
  const tabs = [...r.tabs.slice(0, at), last.tab, ...r.tabs.slice(at)];
  const requests = {
    tabs,
    activeId: last.tab.id,
    stashed: { ...r.stashed, [r.activeId]: active },
    closed: r.closed.slice(0, -1),
  };
  return { requests, active: last.state };
}

export function renameRequest(r: ProtocolRequests, id: string, name: string): ProtocolRequests {
  const trimmed = name.trim();
  if (!trimmed) return r;
  return { ...r, tabs: r.tabs.map((t) => (t.id === id ? { ...t, name: trimmed } : t)) };
}

/** Sets request `id`'s unsent flag; the same list when it already is so (no re-render on each keystroke). */
export function markUnsent(r: ProtocolRequests, id: string, unsent: boolean): ProtocolRequests {
  const tab = r.tabs.find((t) => t.id === id);
  if (!tab || tab.unsent === unsent) return r;
  return { ...r, tabs: r.tabs.map((t) => (t.id === tab.id ? { ...t, unsent } : t)) };
}

export const markActiveUnsent = (r: ProtocolRequests, unsent: boolean): ProtocolRequests =>
  markUnsent(r, r.activeId, unsent);

/** Changes the state of request `id`, which is not on view; the same list when it is not open. */
export function patchStashed(
  r: ProtocolRequests,
  id: string,
  fn: (c: ComposerState) => Partial<ComposerState>,
): ProtocolRequests {
  const c = r.stashed[id];
  if (!c) return r;
  return { ...r, stashed: { ...r.stashed, [id]: { ...c, ...fn(c) } } };
}

/** What the core keeps of each open request (never Undo, warnings or notes: they belong to this session). */
export function draftsOf(r: ProtocolRequests, active: ComposerState): Omit<ProtocolDrafts, 'savedAt'> {
  const requests = r.tabs.flatMap((t): RequestDraft[] => {
    const c = stateOf(r, active, t.id);
    if (!c) return [];
    return [
      {
        id: t.id,
        name: t.name,
        body: c.body,
        draft: c.draft,
        runIds: c.runIds.slice(-MAX_REQUEST_RUNS),
        ...(c.activeRunId && { activeRunId: c.activeRunId }),
        ...(c.continuedRunId && { continuedRunId: c.continuedRunId }),
        ...(c.detachedRunId && { detachedRunId: c.detachedRunId }),
        unsent: t.unsent,
      },
    ];
  });
  return { requests, activeId: r.activeId };
}

/**
 * The kept requests as open tabs, the kept active one on view. `current` is the tab as it is now: when the user
 * already edited it (`touched`), it stays on view as one more request after the kept ones, so nothing is lost.
 */
export function restoredRequests(
  saved: ProtocolDrafts,
  current: RequestsAndActive,
  touched: boolean,
  stateFor: (d: RequestDraft) => ComposerState,
): RequestsAndActive {
  const tabs = saved.requests.map((d) => ({ id: d.id, name: d.name, unsent: d.unsent }));
  const states = Object.fromEntries(saved.requests.map((d) => [d.id, stateFor(d)]));
  const kept = { tabs, activeId: saved.activeId, stashed: states, closed: [] };
  const activeId = states[saved.activeId] ? saved.activeId : tabs[0].id;
  if (touched) {
    const own = activeTab(current.requests);
    const name = nextRequestName(kept);
    const tab = { id: newRequestId(), name, unsent: own?.unsent ?? true };
    return { requests: { ...kept, tabs: [...tabs, tab], activeId: tab.id }, active: current.active };
  }
  const { [activeId]: shown, ...stashed } = states;
  return { requests: { ...kept, activeId, stashed }, active: shown };
}
