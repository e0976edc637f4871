import { describe, expect, it } from 'vitest';
import type { RunUpdate } from '../../shared/contract';
import { columnsOf, rowsOf } from '../../shared/protocols/event-columns';
import { PushBatcher } from './push-batcher';

const ev = (runId: string, seq: number, n = 1): RunUpdate => ({
  kind: 'events',
  runId,
  events: columnsOf(
    Array.from({ length: n }, (_, i) => ({ seq: seq + i, t: seq + i, type: 'x', data: `{"n":${seq + i}}`, size: 2 })),
  ),
});
const tick = () => new Promise((r) => setTimeout(r, 0));
const seqs = (u: RunUpdate) => (u.kind === 'events' ? rowsOf(u.events).map((e) => e.seq) : []);

describe('PushBatcher', () => {
  it('sends the first update of a quiet spell at the end of the tick, then at most one batch per interval', async () => {
    let clock = 1000;
    const sent: RunUpdate[][] = [];
    const b = new PushBatcher(
      (batch) => sent.push(batch),
      16,
      () => clock,
    );
    for (let i = 0; i < 5; i++) b.push(ev('r1', i));
    expect(sent).toHaveLength(0);
    await Promise.resolve();
    expect(sent).toHaveLength(1);
    expect(seqs(sent[0][0])).toEqual([0, 1, 2, 3, 4]);
    for (let i = 5; i < 100; i++) b.push(ev('r1', i));
    await tick();
    expect(sent).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 30));
    clock += 30;
    expect(sent).toHaveLength(2);
    expect(sent[1]).toHaveLength(1);
    expect(seqs(sent[1][0])).toEqual([...Array(95).keys()].map((i) => i + 5));
  });

  it('sends a burst in pushes of a bounded size at once, instead of one huge push a window decodes in one task', () => {
    const sent: RunUpdate[][] = [];
    const b = new PushBatcher(
      (batch) => sent.push(batch),
      1000,
      () => 0,
      100,
    );
    for (let chunk = 0; chunk < 10; chunk++) {
      b.push(ev('r', chunk * 30, 30));
    }
    expect(sent.map((batch) => batch.flatMap(seqs).length)).toEqual([120, 120]);
    b.push({ kind: 'end', runId: 'r', result: {} as never });
    expect(sent.flat().flatMap(seqs)).toEqual([...Array(300).keys()]);
    expect(sent.at(-1)!.at(-1)!.kind).toBe('end');
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

  it('merges only events that continue the queued ones, so every seq stays where it was', () => {
    const sent: RunUpdate[][] = [];
    const b = new PushBatcher((batch) => sent.push(batch), 1000);
    b.push(ev('a', 0, 2));
    b.push(ev('a', 5, 2));
    b.push(ev('a', 7));
    b.flush();
    expect(sent[0].map(seqs)).toEqual([
      [0, 1],
      [5, 6, 7],
    ]);
  });

  it("does not mutate the caller's event arrays and sends nothing after close", async () => {
    const sent: RunUpdate[][] = [];
    const b = new PushBatcher((batch) => sent.push(batch), 1000);
    const first = ev('a', 0);
    const second = ev('a', 1, 2);
    b.push(first);
    b.push(second);
    b.push(ev('a', 3));
    b.flush();
    expect(sent[0].map(seqs)).toEqual([[0, 1, 2, 3]]);
    expect(sent[0][0].kind === 'events' && rowsOf(sent[0][0].events).map((e) => e.data)).toEqual([
      '{"n":0}',
      '{"n":1}',
      '{"n":2}',
      '{"n":3}',
    ]);
    expect(first.kind === 'events' && first.events).toEqual(
      columnsOf([{ seq: 0, t: 0, type: 'x', data: '{"n":0}', size: 2 }]),
    );
    expect(second.kind === 'events' && second.events.data).toEqual(['{"n":1}', '{"n":2}']);
    b.close();
    b.push(ev('a', 2));
    await tick();
    expect(sent).toHaveLength(1);
  });
});
