import { describe, expect, it } from 'vitest';
import { scrubberFor } from '../scrubber';
import { decodeEscapes, SplitSecretGuard, type GuardedEvent } from './split-secret-guard';

const KEY = 'sk-relay/KEY+0123456789abcdef';
const windows = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));
const references = (s: string) =>
  [...s].map((c, i) => (i % 2 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`)).join('');

/** Feeds `text` as 4-character deltas; after each, what a window folding the emitted events would show. */
function stream(text: string, size = 4): { shown: string[]; events: GuardedEvent[] } {
  const emitted: GuardedEvent[] = [];
  const guard = new SplitSecretGuard(scrubberFor([KEY]), (e) => emitted.push(e));
  const block = {};
  const shown: string[] = [];
  const windowText = () => emitted.map((e) => (JSON.parse(e.data) as { text: string }).text).join('');
  for (let i = 0; i < text.length; i += size) {
    const piece = text.slice(i, i + size);
    guard.appended(block, piece);
    guard.event({ t: i, type: 'delta', data: JSON.stringify({ text: piece }), event: undefined, size: 1 });
    shown.push(windowText());
  }
  guard.drain();
  shown.push(windowText());
  return { shown, events: emitted };
}

describe('a secret split over deltas', () => {
  const forms: [string, string][] = [
    ['as written', KEY],
    ['as HTML references', references(KEY)],
    ['URL-encoded twice', encodeURIComponent(encodeURIComponent(KEY))],
    ['with one character a reference', KEY.replace('-', '&#45;')],
  ];
  for (const [name, form] of forms)
    for (const size of [1, 3, 4, 7])
      it(`${name}, in ${size}-character deltas, never reaches the window whole`, () => {
        const { shown, events } = stream(`Your key is ${form} — keep it.`, size);
        for (const s of shown) for (const w of windows) expect(decodeEscapes(s).text).not.toContain(w);
        expect(shown.at(-1)).toContain('[redacted]');
        expect(shown.at(-1)).toMatch(/ — keep it\.$/);
        expect(events.some((e) => e.rewritten)).toBe(true);
      });

  it('lets text go at once when it does not start a secret, and holds only while it might', () => {
    const { shown } = stream('sk-r is not sk-relay/ but plain text.');
    expect(shown[0]).toBe('');
    expect(shown.at(-2)).toBe('sk-r is not sk-relay/ but plain text.');
  });
});
