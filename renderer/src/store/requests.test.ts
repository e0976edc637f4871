/**
 * The open requests of a protocol tab as pure functions: the active one's state is handed in and out, the others
 * wait in the stash, and nothing is ever lost by a switch, a close or a reopen.
 */
import { describe, expect, it } from 'vitest';
import type { ComposerState } from './composer-slice';
import {
  closeRequest,
  draftsOf,
  markActiveUnsent,
  nextRequestName,
  openRequest,
  renameRequest,
  reopenRequest,
  restoredRequests,
  selectRequest,
  singleRequest,
  type RequestsAndActive,
} from './requests';

const state = (text: string): ComposerState => ({
  body: { model: 'm', messages: [{ role: 'user', content: text }] },
  jsonText: text,
  draft: `message ${text}`,
  runIds: [],
  warnings: [],
});
const names = (x: RequestsAndActive) => x.requests.tabs.map((t) => t.name);
const activeName = (x: RequestsAndActive) => x.requests.tabs.find((t) => t.id === x.requests.activeId)?.name;

/** Three requests, "Request 1…3", the third on view. */
function three(): RequestsAndActive {
  let x: RequestsAndActive = { requests: singleRequest(), active: state('one') };
  x = openRequest(x.requests, x.active, state('two'), nextRequestName(x.requests));
  return openRequest(x.requests, x.active, state('three'), nextRequestName(x.requests));
}

describe('requests: open, select, close, reopen', () => {
  it('opens "Request N" on view and keeps the others, each with its own state', () => {
    const x = three();
    expect(names(x)).toEqual(['Request 1', 'Request 2', 'Request 3']);
    expect(x.active.draft).toBe('message three');
    const first = selectRequest(x.requests, x.active, x.requests.tabs[0].id);
    expect(first.active.draft).toBe('message one');
    const back = selectRequest(first.requests, first.active, x.requests.tabs[2].id);
    expect(back.active).toBe(x.active);
    expect(Object.keys(back.requests.stashed)).toHaveLength(2);
  });

  it('closing the one on view shows its right neighbour, else its left; reopen puts it back in place, on view', () => {
    const x = three();
    const second = selectRequest(x.requests, x.active, x.requests.tabs[1].id);
    const closed = closeRequest(second.requests, second.active, second.requests.activeId, () => state('fresh'));
    expect(names(closed)).toEqual(['Request 1', 'Request 3']);
    expect(closed.active.draft).toBe('message three');
    const last = closeRequest(closed.requests, closed.active, closed.requests.activeId, () => state('fresh'));
    expect(activeName(last)).toBe('Request 1');
    const reopened = reopenRequest(last.requests, last.active)!;
    expect(names(reopened)).toEqual(['Request 1', 'Request 3']);
    expect(reopened.active.draft).toBe('message three');
    const again = reopenRequest(reopened.requests, reopened.active)!;
    expect(names(again)).toEqual(['Request 1', 'Request 2', 'Request 3']);
    expect(again.active).toBe(second.active);
    expect(reopenRequest(again.requests, again.active)).toBeUndefined();
  });

  it('closing a request not on view leaves the view alone', () => {
    const x = three();
    const closed = closeRequest(x.requests, x.active, x.requests.tabs[0].id, () => state('fresh'));
    expect(names(closed)).toEqual(['Request 2', 'Request 3']);
    expect(closed.active).toBe(x.active);
  });

  it('closing the last request leaves one fresh request, never none, and numbers never repeat a closed one', () => {
    const only: RequestsAndActive = { requests: singleRequest(), active: state('one') };
    const closed = closeRequest(only.requests, only.active, only.requests.activeId, () => state('fresh'));
    expect(names(closed)).toEqual(['Request 2']);
    expect(closed.active.draft).toBe('message fresh');
    const reopened = reopenRequest(closed.requests, closed.active)!;
    expect(names(reopened)).toEqual(['Request 1', 'Request 2']);
    expect(reopened.active.draft).toBe('message one');
  });
});

describe('requests: names, the unsent dot, persistence', () => {
  it('renames (trimmed; an empty name keeps the old one) and places a copy right after its source', () => {
    const x = three();
    const id = x.requests.tabs[0].id;
    expect(renameRequest(x.requests, id, '  Weather  ').tabs[0].name).toBe('Weather');
    expect(renameRequest(x.requests, id, '   ')).toBe(x.requests);
    const copy = openRequest(x.requests, x.active, state('copy'), 'Request 1 copy', id);
    expect(names(copy)).toEqual(['Request 1', 'Request 1 copy', 'Request 2', 'Request 3']);
  });

  it('marks only the request on view, and returns the same list when nothing changes', () => {
    const x = three();
    const marked = markActiveUnsent(x.requests, true);
    expect(marked.tabs.map((t) => t.unsent)).toEqual([false, false, true]);
    expect(markActiveUnsent(marked, true)).toBe(marked);
    expect(markActiveUnsent(marked, false).tabs[2].unsent).toBe(false);
  });

  it('what is kept round-trips: five requests come back in order, named, the same one on view', () => {
    let x: RequestsAndActive = {
      requests: singleRequest(),
      active: { ...state('1'), runIds: ['r1'], activeRunId: 'r1' },
    };
    for (const n of [2, 3, 4, 5]) x = openRequest(x.requests, x.active, state(String(n)), `Request ${n}`);
    x = selectRequest(x.requests, x.active, x.requests.tabs[2].id);
    x = { ...x, requests: markActiveUnsent(renameRequest(x.requests, x.requests.activeId, 'Third'), true) };
    const kept = draftsOf(x.requests, x.active);
    expect(kept.requests.map((r) => r.name)).toEqual(['Request 1', 'Request 2', 'Third', 'Request 4', 'Request 5']);
    expect(kept.requests[0]).toMatchObject({ runIds: ['r1'], activeRunId: 'r1', draft: 'message 1' });
    const fresh: RequestsAndActive = { requests: singleRequest(), active: state('new window') };
    const back = restoredRequests({ ...kept, savedAt: '' }, fresh, false, (d) => ({
      ...state(''),
      body: d.body,
      draft: d.draft,
    }));
    expect(names(back)).toEqual(['Request 1', 'Request 2', 'Third', 'Request 4', 'Request 5']);
    expect(activeName(back)).toBe('Third');
    expect(back.active.draft).toBe('message 3');
    expect(back.requests.tabs[2].unsent).toBe(true);
    expect(draftsOf(back.requests, back.active).requests.map((r) => r.draft)).toEqual(
      kept.requests.map((r) => r.draft),
    );
  });

  it('a tab the user already edited before the kept requests arrived stays on view as one more request', () => {
    const x = three();
    const kept = draftsOf(x.requests, x.active);
    const mine: RequestsAndActive = { requests: singleRequest(), active: state('typed early') };
    const back = restoredRequests({ ...kept, savedAt: '' }, mine, true, (d) => ({ ...state(''), body: d.body }));
    expect(names(back)).toEqual(['Request 1', 'Request 2', 'Request 3', 'Request 4']);
    expect(back.active).toBe(mine.active);
  });
});
