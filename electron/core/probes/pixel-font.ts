/**
 * A 5×7 pixel font for the nonce alphabet, drawn into a PNG without any font on the machine: the vision probe
 * writes its nonce with it, and the simulator's vision models read it back. Every glyph inks its top and bottom
 * rows and all five columns, so glyphs are found by their blank gaps and sized by their height.
 */
import { PNG } from 'pngjs';

export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;

export const GLYPHS: Record<string, readonly string[]> = {
  A: ['01110', '10001', '10001', '10001', '11111', '10001', '10001'],
  B: ['11110', '10001', '10001', '11110', '10001', '10001', '11110'],
  C: ['01110', '10001', '10000', '10000', '10000', '10001', '01110'],
  D: ['11100', '10010', '10001', '10001', '10001', '10010', '11100'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  F: ['11111', '10000', '10000', '11110', '10000', '10000', '10000'],
  G: ['01110', '10001', '10000', '10111', '10001', '10001', '01111'],
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  J: ['00111', '00010', '00010', '00010', '00010', '10010', '01100'],
  K: ['10001', '10010', '10100', '11000', '10100', '10010', '10001'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  N: ['10001', '10001', '11001', '10101', '10011', '10001', '10001'],
  P: ['11110', '10001', '10001', '11110', '10000', '10000', '10000'],
  Q: ['01110', '10001', '10001', '10001', '10101', '10010', '01101'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  S: ['01111', '10000', '10000', '01110', '00001', '00001', '11110'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  U: ['10001', '10001', '10001', '10001', '10001', '10001', '01110'],
  V: ['10001', '10001', '10001', '10001', '10001', '01010', '00100'],
  W: ['10001', '10001', '10001', '10101', '10101', '10101', '01010'],
  X: ['10001', '10001', '01010', '00100', '01010', '10001', '10001'],
  Y: ['10001', '10001', '10001', '01010', '00100', '00100', '00100'],
  Z: ['11111', '00001', '00010', '00100', '01000', '10000', '11111'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '3': ['11111', '00010', '00100', '00010', '00001', '10001', '01110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '6': ['00110', '01000', '10000', '11110', '10001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '8': ['01110', '10001', '10001', '01110', '10001', '10001', '01110'],
  '9': ['01110', '10001', '10001', '01111', '00001', '00010', '01100'],
};

/** Font pixels of blank between two glyphs. */
const SPACING = 2;

/**
 * Black text on white, each font pixel drawn `scale` image pixels square, with a white margin. Throws on a
 * character the font lacks rather than draw something a reader would take for another.
 */
export function textPng(text: string, scale = 6, margin = 20): { png: Buffer; width: number; height: number } {
  const glyphs = [...text].map((ch) => {
    const g = GLYPHS[ch];
    if (!g) throw new Error(`The pixel font has no glyph for "${ch}".`);
    return g;
  });
  const pitch = (GLYPH_WIDTH + SPACING) * scale;
  const width = margin * 2 + Math.max(0, glyphs.length * pitch - SPACING * scale);
  const height = margin * 2 + GLYPH_HEIGHT * scale;
  const png = new PNG({ width, height });
  png.data.fill(255);
  glyphs.forEach((rows, i) => {
    for (let r = 0; r < GLYPH_HEIGHT; r++) {
      for (let c = 0; c < GLYPH_WIDTH; c++) {
        if (rows[r][c] !== '1') continue;
        for (let y = 0; y < scale; y++) {
          const row = margin + r * scale + y;
          const start = (row * width + margin + i * pitch + c * scale) * 4;
          for (let x = 0; x < scale; x++) png.data.fill(0, start + x * 4, start + x * 4 + 3);
        }
      }
    }
  });
  return { png: PNG.sync.write(png), width, height };
}
