import { describe, expect, it } from 'vitest';
import {
  count,
  eventsToSse,
  indentJson,
  indexOfSeq,
  livePieces,
  PIECE,
  PIECE_MAX,
  timeTicks,
  usageRows,
} from './format';
import { elideBase64 } from './format';

describe('stream viewer formatting', () => {
  it('copies events back as SSE text, with event lines only where they were sent', () => {
    const text = eventsToSse([
      { seq: 0, t: 1, type: 'message_start', event: 'message_start', data: '{"type":"message_start"}', size: 40 },
      { seq: 1, t: 2, type: 'chunk', data: '{"a":1}', size: 10 },
      { seq: 2, t: 3, type: '[DONE]', data: '[DONE]', size: 6 },
      { seq: 3, t: 4, type: 'comment', data: 'keep-alive', size: 12 },
    ]);
    expect(text).toBe(
      'event: message_start\ndata: {"type":"message_start"}\n\ndata: {"a":1}\n\ndata: [DONE]\n\n: keep-alive\n\n',
    );
  });

  it('labels usage the gateway did not report as "not reported", never 0', () => {
    expect(usageRows({ inputTotal: 10, output: 0 })).toEqual([
      ['input', '10'],
      ['output', '0'],
      ['cache read', 'not reported'],
      ['cache write', 'not reported'],
      ['reasoning', 'not reported'],
    ]);
  });
});

describe('live text blocks', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}${i % 40 === 39 ? '\n' : ' '}`).join('');

  it('loses and adds nothing, ends blocks after a newline past the minimum, and caps newline-free text at a space', () => {
    const text = words(3000);
    const pieces = livePieces(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces.slice(0, -1)) {
      expect(p.length).toBeGreaterThan(PIECE);
      expect(p.length).toBeLessThan(PIECE + 400);
      expect(p.endsWith('\n')).toBe(true);
    }
    const spaced = livePieces('x '.repeat(40_000));
    expect(spaced.join('')).toBe('x '.repeat(40_000));
    expect(spaced.slice(0, -1).every((p) => p.endsWith(' ') && p.length <= PIECE_MAX)).toBe(true);
    expect(livePieces('y'.repeat(50_000)).join('')).toBe('y'.repeat(50_000));
    expect(livePieces('short')).toEqual(['short']);
    const emoji = 'a' + '😀'.repeat(20_000);
    const cutEmoji = livePieces(emoji);
    expect(cutEmoji.join('')).toBe(emoji);
    // No piece starts or ends with half a surrogate pair.
    for (const p of cutEmoji) expect(p).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  it('a closed block stays the same as the text grows, so only the last one re-renders', () => {
    const text = words(3000);
    for (const source of [text, 'x '.repeat(40_000)]) {
      const later = livePieces(source);
      for (const cut of [9000, 17_000, 33_333]) {
        const early = livePieces(source.slice(0, cut));
        expect(later.slice(0, early.length - 1)).toEqual(early.slice(0, -1));
      }
    }
  });

  it('formats counts with thousands separators', () => {
    expect(count(20006)).toBe('20,006');
    expect(count(0)).toBe('0');
  });
});

describe('indentJson', () => {
  it('lays JSON out as JSON.stringify(…, null, 2) would, whatever whitespace it came with', () => {
    const value = { a: [1, { b: 'x, "y": {z}', c: [] }, null], d: {}, e: { f: true, g: -1.5e3 }, h: 'é 🙂 \\ \n' };
    for (const text of [
      JSON.stringify(value),
      JSON.stringify(value, null, '\t'),
      ' \r\n' + JSON.stringify(value, null, 4) + '\n',
    ])
      expect(indentJson(text)).toBe(JSON.stringify(value, null, 2));
    expect(indentJson('{ "a" : [ ] , "b" : { \n } }')).toBe('{\n  "a": [],\n  "b": {}\n}');
    expect(indentJson(' 42 ')).toBe('42');
  });

  it('keeps numbers and escapes as written, and leaves what is not JSON alone', () => {
    expect(indentJson('{"n":12345678901234567890,"f":1.0,"s":"\\u00e9"}')).toBe(
      '{\n  "n": 12345678901234567890,\n  "f": 1.0,\n  "s": "\\u00e9"\n}',
    );
    expect(indentJson('{"a":1')).toBeUndefined();
    expect(indentJson('<html></html>')).toBeUndefined();
  });
});

describe('finding an event by seq', () => {
  const of = (seqs: number[]) => seqs.map((seq) => ({ seq, t: seq, type: 'x', data: '{}', size: 2 }));

  it('finds each event of a whole list or a filtered one, and says -1 for one that is not in it', () => {
    const filtered = of([2, 5, 9, 14, 15, 40]);
    filtered.forEach((e, i) => expect(indexOfSeq(filtered, e.seq)).toBe(i));
    for (const missing of [0, 3, 16, 41]) expect(indexOfSeq(filtered, missing)).toBe(-1);
    const whole = of(Array.from({ length: 1000 }, (_, i) => i));
    expect(indexOfSeq(whole, 0)).toBe(0);
    expect(indexOfSeq(whole, 999)).toBe(999);
    expect(indexOfSeq([], 1)).toBe(-1);
  });
});

describe('time axis ticks', () => {
  it('steps by 1, 2 or 5 times a power of ten, from 0, never past the end, at most six after 0', () => {
    expect(timeTicks(634)).toEqual([0, 200, 400, 600]);
    expect(timeTicks(1215)).toEqual([0, 500, 1000]);
    expect(timeTicks(90_020)).toEqual([0, 20_000, 40_000, 60_000, 80_000]);
    expect(timeTicks(3.4)).toEqual([0, 1, 2, 3]);
    expect(timeTicks(0)).toEqual([0]);
    for (const end of [7, 95, 1001, 47_500, 123_456]) {
      const ticks = timeTicks(end);
      expect(ticks.length).toBeLessThanOrEqual(7);
      expect(ticks.at(-1)!).toBeLessThanOrEqual(end);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('elideBase64', () => {
  it('shortens a data URL and a bare base64 string to their start and size, and leaves text and short strings', () => {
    const png = 'iVBORw0KGgo' + 'A'.repeat(12 * 1024 - 11);
    const value = { a: `data:image/png;base64,${png}`, b: { data: png }, text: 'hello '.repeat(100), id: 'abc' };
    const body = JSON.stringify(value, null, 2);
    const { text, elided } = elideBase64(body);
    expect(elided).toBe(2);
    expect(text).toContain('"a": "data:image/png;base64,iVBORw0KGgoAAAAA… 12.0 KB base64"');
    expect(text).toContain('"data": "iVBORw0KGgoAAAAA… 12.0 KB base64"');
    expect(text).toContain('hello hello');
    expect(text).toContain('"id": "abc"');
    expect(text.length).toBeLessThan(1000);
  });
});
