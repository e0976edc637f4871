/**
 * The renderer's start-up script holds what the first protocol tab needs and no more (docs/architecture.md §9):
 * the other tabs, CodeMirror, the Markdown renderer with its highlighter, the translation and the dialogs are
 * chunks of their own, fetched on first use; zod, which only checks the contract's schemas, is not in it either. Built here as `npm run build`
 * builds it (vite.config.ts), kept in memory.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';

const root = path.resolve(import.meta.dirname, '..');

type Chunk = Rolldown.OutputChunk;

async function chunks(): Promise<Chunk[]> {
  const out = await build({
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false },
  });
  const outputs = Array.isArray(out) ? out : [out];
  return outputs.flatMap((o) => ('output' in o ? o.output : [])).filter((c): c is Chunk => c.type === 'chunk');
}

/** The entry and every chunk it imports statically: what the page runs before its first paint. */
function initial(all: Chunk[]): Chunk[] {
  const byName = new Map(all.map((c) => [c.fileName, c]));
  const seen = new Set<Chunk>();
  const visit = (c: Chunk | undefined) => {
    if (!c || seen.has(c)) return;
    seen.add(c);
    c.imports.forEach((f) => visit(byName.get(f)));
  };
  all.filter((c) => c.isEntry).forEach(visit);
  return [...seen];
}

const LATER: Record<string, RegExp> = {
  CodeMirror: /node_modules\/(@codemirror|@uiw\/react-codemirror|@lezer)\//,
  'react-markdown': /node_modules\/(react-markdown|remark-gfm|micromark[^/]*)\//,
  'the highlighter': /node_modules\/(rehype-highlight|highlight\.js|lowlight)\//,
  'the Compare tab': /renderer\/src\/features\/compare\/CompareTab\.tsx$/,
  'the History tab': /renderer\/src\/features\/library\/HistoryTab\.tsx$/,
  'the Presets tab': /renderer\/src\/features\/library\/PresetsTab\.tsx$/,
  'the Capabilities tab': /renderer\/src\/features\/capabilities\/CapabilitiesTab\.tsx$/,
  'the Load tab': /renderer\/src\/features\/load\/LoadTab\.tsx$/,
  'the Agents tab': /renderer\/src\/features\/agents\/AgentsTab\.tsx$/,
  // Used by the Bring offer, Compare and Presets only; the store fetches it when Compare runs.
  'the translation': /shared\/translate\/index\.ts$/,
  'the Connections dialog': /renderer\/src\/features\/connection\/ConnectionsDialog\.tsx$/,
  'the Code dialog': /renderer\/src\/features\/export\/CodeDialog\.tsx$/,
};

describe('the built renderer', () => {
  it('starts with the first tab only: other tabs, CodeMirror and Markdown are chunks loaded later', async () => {
    const all = await chunks();
    const first = initial(all);
    const startModules = first.flatMap((c) => c.moduleIds);
    const laterModules = all.filter((c) => !first.includes(c)).flatMap((c) => c.moduleIds);
    for (const [what, module] of Object.entries(LATER)) {
      expect(
        startModules.filter((m) => module.test(m)),
        `${what} in the start-up script`,
      ).toEqual([]);
      // Built at all (so the check above is not vacuous), in a chunk of its own.
      expect(
        laterModules.some((m) => module.test(m)),
        `${what} in a later chunk`,
      ).toBe(true);
    }
    // The contract's schemas are the core's to check: the window needs only their names and constants.
    expect(startModules.filter((m) => /node_modules\/zod\//.test(m))).toEqual([]);
    // What the first tab needs is there from the start.
    expect(startModules.some((m) => /features\/composer\/Composer\.tsx$/.test(m))).toBe(true);
    const bytes = first.reduce((n, c) => n + Buffer.byteLength(c.code), 0);
    const total = all.reduce((n, c) => n + Buffer.byteLength(c.code), 0);
    expect(bytes / total).toBeLessThan(0.5);
  }, 180_000);
});
