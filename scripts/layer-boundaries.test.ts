/**
 * The layers of docs/architecture.md §3 hold in the tree: no source file of shared/, renderer/ or electron/
 * imports across its boundary. The same rules run in `npm run lint`; here they run in the unit suite as well,
 * with only a parser (no type information), so a crossing fails even where lint is not run.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaries } from '../eslint.boundaries.mjs';

const ROOT = join(import.meta.dirname, '..');

function boundaryLinter(): ESLint {
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
  });
}

/** Each refused import, and each file that does not parse, as `file:line: message`. */
function crossings(results: ESLint.LintResult[]): string[] {
  return results.flatMap((r) =>
    r.messages
      .filter((m) => m.ruleId === 'no-restricted-imports' || m.fatal)
      .map((m) => `${r.filePath.slice(ROOT.length + 1)}:${m.line}: ${m.message}`),
  );
}

describe('layer boundaries', { timeout: 120_000 }, () => {
  it('hold for every source file in the tree', async () => {
    const files = execFileSync('git', ['ls-files', 'shared', 'renderer', 'electron'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(50);
    const results = await boundaryLinter().lintFiles(files);
    expect(crossings(results)).toEqual([]);
  });

  it('refuse each kind of crossing, and let tests reach real parts', async () => {
    const lint = boundaryLinter();
    const refused = async (filePath: string, code: string) =>
      (await lint.lintText(code, { filePath: join(ROOT, filePath) }))[0].messages.map((m) => m.ruleId);
    const one = ['no-restricted-imports'];

    expect(await refused('shared/x.ts', "import { readFileSync } from 'node:fs';")).toEqual(one);
    expect(await refused('shared/x.ts', "import type { Core } from '../electron/core/service';")).toEqual(one);
    expect(
      await refused('renderer/src/x.ts', "import { startSimulator } from '../../electron/core/simulator';"),
    ).toEqual(one);
    expect(await refused('renderer/src/x.tsx', "import path from 'path';")).toEqual(one);
    expect(await refused('electron/core/x.ts', "import { app } from 'electron';")).toEqual(one);
    expect(await refused('electron/core/x.ts', "import { gateway } from '../../renderer/src/bridge';")).toEqual(one);
    expect(await refused('electron/web/x.ts', "import type { AppState } from '../../renderer/src/store';")).toEqual(
      one,
    );

    expect(await refused('electron/main/x.ts', "import { app } from 'electron';")).toEqual([]);
    expect(await refused('electron/core/x.ts', "import { readFile } from 'node:fs/promises';")).toEqual([]);
    expect(await refused('shared/x.test.ts', "import { startSimulator } from '../electron/core/simulator';")).toEqual(
      [],
    );
  });
});
