import { describe, expect, it, vi } from 'vitest';

vi.mock('../bridge', () => ({ gateway: {} }));

import type { RunUpdate } from '../../../shared/contract';
import { applyUpdates } from './runs-slice';

import type { Ledger } from '../../../shared/contract';

const ledger = (runId: string): Ledger => ({ runId, protocol: 'chat', profileId: 'demo', profileName: 'Demo', stream: true, method: 'POST', url: 'u', headers: {}, body: '{}', bodyBytes: 2, startedAt: '', warnings: [] });
const chunk = (seq: number, content: string) => ({
  seq,
  t: seq * 10,
  type: 'chunk',
  data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] }),
  size: 50,
});

describe('runs slice: applying pushes', () => {
  it('folds live events into the transcript and records time to first token', () => {
    let runs = applyUpdates({}, [{ kind: 'started', runId: 'a', ledger: ledger('a') }] as RunUpdate[]);
    runs = applyUpdates(runs, [{ kind: 'events', runId: 'a', events: [chunk(0, 'Hel'), chunk(1, 'lo')] }]);
    expect(runs.a.status).toBe('streaming');
    expect(runs.a.transcript.blocks).toEqual([{ kind: 'text', text: 'Hello' }]);
    expect(runs.a.live).toMatchObject({ events: 2, ttftMs: 0 });
  });

  it('keeps the identity of runs a batch does not touch, so their views do not re-render', () => {
    let runs = applyUpdates({}, [
      { kind: 'started', runId: 'a', ledger: ledger('a') },
      { kind: 'started', runId: 'b', ledger: ledger('b') },
    ] as RunUpdate[]);
    const b = runs.b;
    runs = applyUpdates(runs, [{ kind: 'events', runId: 'a', events: [chunk(0, 'x')] }]);
    expect(runs.b).toBe(b);
    expect(runs.a.events).toHaveLength(1);
  });

  it('accepts events that arrive before the start call returned, and ends with the final transcript', () => {
    let runs = applyUpdates({}, [{ kind: 'events', runId: 'z', events: [chunk(0, 'early')] }]);
    expect(runs.z.events).toHaveLength(1);
    runs = applyUpdates(runs, [{ kind: 'end', runId: 'z', result: { verdict: 'truncated', reason: 'closed', transcript: { blocks: [{ kind: 'text', text: 'early' }], usage: {} }, metrics: { totalMs: 5, events: 1, bytes: 50, usage: {} }, warnings: [], endedAt: '' } }]);
    expect(runs.z.status).toBe('done');
    expect(runs.z.result?.verdict).toBe('truncated');
    expect(runs.z.transcript.blocks[0]).toEqual({ kind: 'text', text: 'early' });
  });
});
