/**
 * The pixel font's promises that the vision probe and the simulator's reader rely on.
 */
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS, textPng } from './pixel-font';
import { NONCE_ALPHABET, nonce } from './harness';
import { readText } from '../simulator/images';

describe('pixel font', () => {
  it('draws exactly the nonce alphabet, every glyph distinct and inked in all columns and its top and bottom rows', () => {
    expect(Object.keys(GLYPHS).sort().join('')).toBe([...NONCE_ALPHABET].sort().join(''));
    expect(new Set(Object.values(GLYPHS).map((g) => g.join(''))).size).toBe(NONCE_ALPHABET.length);
    for (const [ch, rows] of Object.entries(GLYPHS)) {
      expect(rows, ch).toHaveLength(GLYPH_HEIGHT);
      for (const row of rows) expect(row, ch).toMatch(new RegExp(`^[01]{${GLYPH_WIDTH}}$`));
      for (let c = 0; c < GLYPH_WIDTH; c++)
        expect(
          rows.some((row) => row[c] === '1'),
          `${ch} column ${c}`,
        ).toBe(true);
      expect(rows[0], ch).toContain('1');
      expect(rows[GLYPH_HEIGHT - 1], ch).toContain('1');
    }
  });

  it('renders black on white with a margin, and the simulator reads every nonce back', () => {
    const { png, width, height } = textPng('AB');
    const img = PNG.sync.read(png);
    expect([img.width, img.height]).toEqual([width, height]);
    expect([...img.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    for (let i = 0; i < 200; i++) {
      const n = nonce();
      expect(readText(textPng(n).png)).toBe(n);
    }
  });

  it('refuses a character it has no glyph for', () => {
    expect(() => textPng('A0')).toThrow(/no glyph for "0"/);
  });
});
