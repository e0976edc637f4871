import { describe, expect, it } from 'vitest';
import type { RawEvent } from './types';
import { appendColumns, columnCount, columnsOf, copyColumns, rowsOf } from './event-columns';

const row = (seq: number, event?: string): RawEvent =>
  event === undefined ? { seq, t: seq / 4, type: 'chunk', data: `{"n":${seq}}`, size: 20 + seq } : { seq, t: seq / 4, type: event, event, data: `{"type":"${event}"}`, size: 30 + seq };

describe('event columns', () => {
  it('carry rows with and without an event line through JSON (the browser host) and back unchanged', () => {
    const rows = [row(7, 'message_start'), row(8), row(9, 'content_block_delta'), row(10)];
    const columns = columnsOf(rows);
    expect(columns.first).toBe(7);
    expect(columnCount(columns)).toBe(4);
    expect(rowsOf(JSON.parse(JSON.stringify(columns)))).toEqual(rows);
    expect(rowsOf(structuredClone(columns))).toEqual(rows);
    // No `event: undefined` key on a data-only row: the row equals one the core lists afterwards.
    expect(Object.keys(rowsOf(columns)[1])).toEqual(['seq', 't', 'type', 'data', 'size']);
  });

  it('append only what continues them, and a copy is appended to without touching the original', () => {
    const a = columnsOf([row(0), row(1, 'ping')]);
    const copy = copyColumns(a);
    expect(appendColumns(copy, columnsOf([row(3)]))).toBe(false);
    expect(columnCount(copy)).toBe(2);
    expect(appendColumns(copy, columnsOf([row(2), row(3, 'ping')]))).toBe(true);
    expect(rowsOf(copy).map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    expect(rowsOf(copy)[3]).toEqual(row(3, 'ping'));
    expect(rowsOf(a)).toEqual([row(0), row(1, 'ping')]);
  });

  it('append a batch too large for one spread call', () => {
    const big = Array.from({ length: 200_000 }, (_, i) => row(i + 1));
    const into = columnsOf([row(0)]);
    expect(appendColumns(into, columnsOf(big))).toBe(true);
    expect(columnCount(into)).toBe(200_001);
    expect(rowsOf(into)[200_000]).toEqual(row(200_000));
  });
});
