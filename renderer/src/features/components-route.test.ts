/**
 * One route from components to the core: a feature calls the store's actions, and only the store talks to the
 * bridge. This holds the rule for every feature file, so a new direct call fails here rather than in review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FEATURES = dirname(fileURLToPath(import.meta.url));

/** `import … from '…/bridge'`, `export … from '…/bridge'` or `import('…/bridge')`, with any quote. */
const BRIDGE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"`])(?:\.{1,2}\/)+(?:[\w.-]+\/)*bridge(?:\.tsx?)?\1/;

function featureSources(): { file: string; text: string }[] {
  return readdirSync(FEATURES, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((file) => ({ file, text: readFileSync(join(FEATURES, file), 'utf8') }));
}

describe('components reach the core only through the store', () => {
  it('recognises every way a file could import the bridge, and nothing else', () => {
    expect(BRIDGE_IMPORT.test(`import { gateway } from '../../bridge';`)).toBe(true);
    expect(BRIDGE_IMPORT.test(`import type { X } from "../bridge.ts";`)).toBe(true);
    expect(BRIDGE_IMPORT.test(`const m = await import('../../bridge');`)).toBe(true);
    expect(BRIDGE_IMPORT.test(`export { gateway } from '../../bridge';`)).toBe(true);
    expect(BRIDGE_IMPORT.test(`import { useAppStore } from '../../store';`)).toBe(false);
    expect(BRIDGE_IMPORT.test(`import { bridgeNote } from './bridge-note';`)).toBe(false);
  });

  it('no feature file (tests aside) imports the bridge', () => {
    const sources = featureSources();
    // The scan reaches the nested feature folders, so an empty match cannot pass for a clean one.
    expect(sources.some((s) => s.file.endsWith('HistoryTab.tsx'))).toBe(true);
    expect(sources.length).toBeGreaterThan(50);
    const offenders = sources.filter((s) => BRIDGE_IMPORT.test(s.text)).map((s) => s.file);
    expect(offenders).toEqual([]);
  });
});
