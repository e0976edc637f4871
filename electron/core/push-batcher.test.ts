import { describe, expect, it, vi } from 'vitest';
import type { RunUpdate } from '../../shared/contract';
import { PushBatcher } from './push-batcher';

const ev = (runId: string, seq: number): RunUpdate => ({
  kind: 'events',
  runId,
  events: [{ seq, t: seq, type: 'x', data: '{}', size: 2 }],
});

describe('PushBatcher', () => {
  it('sends many events of one run as one update per flush, in order', async () => {
    vi.useFakeTimers();
    const sent: RunUpdate[][] = [];
    const b = new PushBatcher((batch) => sent.push(batch), 16);
    for (let i = 0; i < 100; i++) b.push(ev('r1', i));
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(16);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toHaveLength(1);
    const only = sent[0][0];
    expect(only.kind === 'events' && only.events.map((e) => e.seq)).toEqual([...Array(100).keys()]);
    vi.useRealTimers();
  });

  it('keeps runs apart and flushes at once on end', () => {
    const sent: RunUpdate[][] = [];
    const b = new PushBatcher((batch) => sent.push(batch), 1000);
    b.push(ev('a', 0));
    b.push(ev('b', 0));
    b.push(ev('a', 1));
    b.push({ kind: 'end', runId: 'a', result: {} as never });
    expect(sent).toHaveLength(1);
    expect(sent[0].map((u) => `${u.kind}:${u.runId}`)).toEqual(['events:a', 'events:b', 'events:a', 'end:a']);
  });

  it('does not mutate the caller\'s event arrays', () => {
    const sent: RunUpdate[][] = [];
    const b = new PushBatcher((batch) => sent.push(batch), 1000);
    const first = ev('a', 0);
    b.push(first);
    b.push(ev('a', 1));
    b.flush();
    expect(first.kind === 'events' && first.events).toHaveLength(1);
  });
});
