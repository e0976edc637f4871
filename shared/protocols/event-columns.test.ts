import { describe, expect, it } from 'vitest';
import type { RawEvent } from './types';
import { columnCount, columnsOf, concatColumns, rowsOf } from './event-columns';

const row = (seq: number, event?: string): RawEvent =>
  event === undefined
    ? { seq, t: seq / 4, type: 'chunk', data: `{"n":${seq}}`, size: 20 + seq }
    : { seq, t: seq / 4, type: event, event, data: `{"type":"${event}"}`, size: 30 + seq };

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

  it('join pushes that follow one another into one, leaving each push as it was', () => {
    const a = columnsOf([row(0), row(1, 'ping')]);
    const b = columnsOf([row(2)]);
    const c = columnsOf([row(3, 'ping'), row(4)]);
    const joined = concatColumns([a, b, c]);
    expect(joined.first).toBe(0);
    expect(rowsOf(joined)).toEqual([row(0), row(1, 'ping'), row(2), row(3, 'ping'), row(4)]);
    expect(rowsOf(a)).toEqual([row(0), row(1, 'ping')]);
    expect(columnCount(b)).toBe(1);
    expect(concatColumns([c])).toBe(c);
  });
});
