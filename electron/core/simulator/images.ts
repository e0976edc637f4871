/**
 * What the simulated gateway sees in an image: text drawn in the probes' pixel font (the vision probe's nonce),
 * or else its dominant colour.
 */
import { PNG } from 'pngjs';
import { GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS } from '../probes/pixel-font';

const COLOURS: [string, number, number, number][] = [
  ['red', 220, 40, 40],
  ['green', 40, 180, 60],
  ['blue', 40, 80, 220],
  ['yellow', 230, 210, 40],
  ['white', 250, 250, 250],
  ['black', 10, 10, 10],
  ['orange', 240, 140, 30],
  ['purple', 140, 60, 190],
];

/** The decoded image, or undefined for bytes that are not a readable PNG (a user may attach anything). */
function decodePng(png: Buffer): PNG | undefined {
  try {
    return PNG.sync.read(png);
  } catch {
    return undefined;
  }
}

export function dominantColour(png: Buffer): string | undefined {
  const img = decodePng(png);
  if (!img) return undefined;
  let r = 0;
  let g = 0;
  let b = 0;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) {
    r += img.data[i * 4];
    g += img.data[i * 4 + 1];
    b += img.data[i * 4 + 2];
  }
  r /= n;
  g /= n;
  b /= n;
  let best = COLOURS[0];
  let bestD = Infinity;
  for (const c of COLOURS) {
    const d = (c[1] - r) ** 2 + (c[2] - g) ** 2 + (c[3] - b) ** 2;
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best[0];
}

const GLYPH_OF = new Map(Object.entries(GLYPHS).map(([ch, rows]) => [rows.join(''), ch]));

/**
 * What a vision model would read in the image, for text drawn in the pixel font (the vision probe's nonce):
 * black glyphs on a light background, found by the blank columns between them and read cell by cell. Any
 * other image (a photo, a solid colour, another font) has no text this reader can vouch for.
 */
export function readText(png: Buffer): string | undefined {
  const img = decodePng(png);
  if (!img) return undefined;
  const { width, height, data } = img;
  const ink = (x: number, y: number) => {
    const i = (y * width + x) * 4;
    return data[i] < 96 && data[i + 1] < 96 && data[i + 2] < 96 && data[i + 3] >= 128;
  };
  const inkedColumn = new Array<boolean>(width).fill(false);
  let top = height;
  let bottom = -1;
  let inked = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!ink(x, y)) continue;
      inked++;
      inkedColumn[x] = true;
      top = Math.min(top, y);
      bottom = y;
    }
  }
  // Mostly dark is a dark picture, not text on a page.
  if (inked === 0 || inked * 2 > width * height) return undefined;
  const scale = (bottom - top + 1) / GLYPH_HEIGHT;
  if (!Number.isInteger(scale)) return undefined;
  const centre = Math.floor(scale / 2);
  let text = '';
  for (let x = 0; x < width; x++) {
    if (!inkedColumn[x]) continue;
    let end = x;
    while (end < width && inkedColumn[end]) end++;
    if (end - x !== GLYPH_WIDTH * scale) return undefined;
    let cells = '';
    for (let r = 0; r < GLYPH_HEIGHT; r++) {
      for (let c = 0; c < GLYPH_WIDTH; c++) cells += ink(x + c * scale + centre, top + r * scale + centre) ? '1' : '0';
    }
    const ch = GLYPH_OF.get(cells);
    if (!ch) return undefined;
    text += ch;
    x = end;
  }
  return text || undefined;
}
