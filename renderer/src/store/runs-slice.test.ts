import { describe, expect, it, vi } from 'vitest';

vi.mock('../bridge', () => import('../test/fake-gateway'));

import {
  applyUpdates,
  EVENTS_PER_FRAME,
  nextBudget,
  recordedRunUpdates,
  takeFrame,
  type ViewUpdate,
} from './runs-slice';

import type { Ledger } from '../../../shared/contract';

const ledger = (runId: string): Ledger => ({
  runId,
  protocol: 'chat',
  profileId: 'demo',
  profileName: 'Demo',
  stream: true,
  method: 'POST',
  url: 'u',
  headers: {},
  body: '{}',
  bodyBytes: 2,
  startedAt: '',
  warnings: [],
});
const chunk = (seq: number, content: string) => ({
  seq,
  t: seq * 10,
  type: 'chunk',
  data: JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  }),
  size: 50,
});

describe('runs slice: applying pushes', () => {
  it('folds live events into the transcript and records time to first token', () => {
    let runs = applyUpdates({}, [{ kind: 'started', runId: 'a', ledger: ledger('a') }] as ViewUpdate[]);
    runs = applyUpdates(runs, [{ kind: 'events', runId: 'a', events: [chunk(0, 'Hel'), chunk(1, 'lo')] }]);
    expect(runs.a.status).toBe('streaming');
    expect(runs.a.transcript.blocks).toEqual([{ kind: 'text', text: 'Hello' }]);
    expect(runs.a.live).toMatchObject({ events: 2, ttftMs: 0 });
  });

  it('keeps the identity of runs a batch does not touch, so their views do not re-render', () => {
    let runs = applyUpdates({}, [
      { kind: 'started', runId: 'a', ledger: ledger('a') },
      { kind: 'started', runId: 'b', ledger: ledger('b') },
    ] as ViewUpdate[]);
    const b = runs.b;
    runs = applyUpdates(runs, [{ kind: 'events', runId: 'a', events: [chunk(0, 'x')] }]);
    expect(runs.b).toBe(b);
    expect(runs.a.events).toHaveLength(1);
  });

  it('counts each event type as events arrive, in first-seen order, without changing the view a batch replaced', () => {
    const ping = (seq: number) => ({ seq, t: seq * 10, type: 'ping', data: '{}', size: 2 });
    let runs = applyUpdates({}, [{ kind: 'started', runId: 'a', ledger: ledger('a') }] as ViewUpdate[]);
    runs = applyUpdates(runs, [{ kind: 'events', runId: 'a', events: [ping(0), chunk(1, 'a'), chunk(2, 'b')] }]);
    const before = runs.a;
    expect(before.live.types).toEqual([
      ['ping', 1],
      ['chunk', 2],
    ]);
    runs = applyUpdates(runs, [
      { kind: 'events', runId: 'a', events: [chunk(3, 'c'), ping(4), chunk(5, 'd'), { ...ping(6), type: 'error' }] },
    ]);
    expect(runs.a.live.types).toEqual([
      ['ping', 2],
      ['chunk', 4],
      ['error', 1],
    ]);
    expect(before.live.types).toEqual([
      ['ping', 1],
      ['chunk', 2],
    ]);
  });

  it('accepts events that arrive before the start call returned, and ends with the final transcript', () => {
    let runs = applyUpdates({}, [{ kind: 'events', runId: 'z', events: [chunk(0, 'early')] }]);
    expect(runs.z.events).toHaveLength(1);
    runs = applyUpdates(runs, [
      {
        kind: 'end',
        runId: 'z',
        result: {
          verdict: 'truncated',
          reason: 'closed',
          transcript: { blocks: [{ kind: 'text', text: 'early' }], usage: {} },
          metrics: { totalMs: 5, events: 1, bytes: 50, usage: {} },
          warnings: [],
          endedAt: '',
        },
      },
    ]);
    expect(runs.z.status).toBe('done');
    expect(runs.z.result?.verdict).toBe('truncated');
    expect(runs.z.transcript.blocks[0]).toEqual({ kind: 'text', text: 'early' });
  });
});

describe('runs slice: a run started again', () => {
  it('a recorded run applied a second time shows its events once, not twice', () => {
    const run = {
      ledger: ledger('h'),
      events: [chunk(0, 'Hel'), chunk(1, 'lo')],
      origin: 'composer' as const,
      result: {
        verdict: 'truncated' as const,
        reason: 'closed',
        transcript: { blocks: [{ kind: 'text' as const, text: 'Hello' }], usage: {} },
        metrics: { totalMs: 20, events: 2, bytes: 100, usage: {} },
        warnings: [],
        endedAt: '',
      },
    };
    let runs = applyUpdates({}, recordedRunUpdates('h', run));
    runs = applyUpdates(runs, recordedRunUpdates('h', run));
    expect(runs.h.events.map((e) => e.seq)).toEqual([0, 1]);
    expect(runs.h.live).toMatchObject({ events: 2, bytes: 100, ttftMs: 0 });
    expect(runs.h.live.content).toHaveLength(2);
    expect(runs.h.transcript.blocks).toEqual([{ kind: 'text', text: 'Hello' }]);
  });
});

describe('runs slice: one frame at a time', () => {
  const events = (runId: string, from: number, n: number): ViewUpdate => ({
    kind: 'events',
    runId,
    events: Array.from({ length: n }, (_, i) => chunk(from + i, 'w')),
  });
  const end = (runId: string) =>
    ({
      kind: 'end',
      runId,
      result: {
        verdict: 'complete',
        reason: '',
        transcript: { blocks: [], usage: {} },
        metrics: { totalMs: 1, events: 0, bytes: 0, usage: {} },
        warnings: [],
        endedAt: '',
      },
    }) as ViewUpdate;

  it('splits a burst across frames at the event budget and never lets the end overtake its events', () => {
    let queue: ViewUpdate[] = [
      { kind: 'started', runId: 'a', ledger: ledger('a') },
      events('a', 0, 2500),
      events('a', 2500, 2500),
      end('a'),
    ];
    const frames: ViewUpdate[][] = [];
    while (queue.length) {
      const { batch, rest } = takeFrame(queue, 2000);
      frames.push(batch);
      queue = rest;
    }
    expect(frames).toHaveLength(3);
    const seqs = frames.map((f) => f.flatMap((u) => (u.kind === 'events' ? u.events.map((e) => e.seq) : [])));
    expect(seqs.map((s) => s.length)).toEqual([2000, 2000, 1000]);
    expect(seqs.flat()).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(frames[0][0].kind).toBe('started');
    expect(frames[2].at(-1)?.kind).toBe('end');
    expect(frames[0].some((u) => u.kind === 'end') || frames[1].some((u) => u.kind === 'end')).toBe(false);
  });

  it('applies a small batch whole, in one frame', () => {
    const queue = [events('a', 0, 10), events('b', 0, 10), end('a')];
    expect(takeFrame(queue, 2000)).toEqual({ batch: queue, rest: [] });
  });

  it('the same run folded frame by frame ends with the same transcript as in one go', () => {
    const all: ViewUpdate[] = [{ kind: 'started', runId: 'a', ledger: ledger('a') }, events('a', 0, 700)];
    const whole = applyUpdates({}, all);
    let runs = {};
    let queue = all.map((u) => ({
      ...u,
      runId: 'b',
      ...(u.kind === 'started' ? { ledger: ledger('b') } : {}),
    })) as ViewUpdate[];
    while (queue.length) {
      const { batch, rest } = takeFrame(queue, 64);
      runs = applyUpdates(runs, batch);
      queue = rest;
    }
    expect((runs as Record<string, { transcript: unknown; events: unknown[] }>).b.transcript).toEqual(
      whole.a.transcript,
    );
    expect((runs as Record<string, { events: unknown[] }>).b.events).toHaveLength(700);
  });
});

describe('runs slice: the per-frame budget', () => {
  it('halves after a frame that overran, grows after one with room, and stays within its bounds', () => {
    expect(nextBudget(EVENTS_PER_FRAME, 50)).toBe(EVENTS_PER_FRAME / 2);
    expect(nextBudget(EVENTS_PER_FRAME, 16.7)).toBeGreaterThan(EVENTS_PER_FRAME);
    expect(nextBudget(EVENTS_PER_FRAME, 33.3)).toBe(EVENTS_PER_FRAME);
    let b = EVENTS_PER_FRAME;
    for (let i = 0; i < 50; i++) b = nextBudget(b, 100);
    expect(b).toBe(250);
    for (let i = 0; i < 50; i++) b = nextBudget(b, 16);
    expect(b).toBe(12_000);
  });
});
