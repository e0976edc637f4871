import { describe, expect, it } from 'vitest';
import { EventLog } from './event-log';

describe('EventLog', () => {
  it('gives back exactly the events added, in order, with their event lines', () => {
    const log = new EventLog();
    for (let i = 0; i < 3000; i++) {
      const type = i % 3 === 0 ? 'chunk' : 'content_block_delta';
      const line = i % 3 === 0 ? undefined : i % 3 === 1 ? 'content_block_delta' : 'custom';
      log.add(i / 4, type, `{"n":${i}}`, line, 10 + i);
    }
    expect(log.length).toBe(3000);
    const all = log.all();
    expect(all).toHaveLength(3000);
    expect(all[0]).toEqual({ seq: 0, t: 0, type: 'chunk', data: '{"n":0}', size: 10 });
    expect(all[2500]).toEqual({ seq: 2500, t: 625, type: 'content_block_delta', event: 'content_block_delta', data: '{"n":2500}', size: 2510 });
    expect(all[2999]).toEqual({ seq: 2999, t: 749.75, type: 'content_block_delta', event: 'custom', data: '{"n":2999}', size: 3009 });
    expect('event' in all[0]).toBe(false);
  });

  it('hands each event to exactly one push, and the finished run is those same events', () => {
    const log = new EventLog();
    const pushes = [3, 0, 5, 2].map((n) => {
      for (let i = 0; i < n; i++) log.add(log.length, 'ping', 'x', undefined, 1);
      return log.take();
    });
    expect(pushes.map((p) => p.map((e) => e.seq))).toEqual([[0, 1, 2], [], [3, 4, 5, 6, 7], [8, 9]]);
    log.add(10, 'message_stop', '{}', 'message_stop', 2);
    const all = log.all();
    expect(all.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The finished run reuses the pushed objects instead of building a second set.
    expect(all[4]).toBe(pushes[2][1]);
    expect(log.take().map((e) => e.seq)).toEqual([10]);
  });
});
