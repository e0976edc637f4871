import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDirs } from '../electron/core/testing/temp-dirs';

const dirs = tempDirs('gp-ci-summary-');
const script = path.resolve('scripts/ci-summary.mjs');

/** Runs the CI summary over the stage results CI would have left in `.tmp`. */
function summary(files: Record<string, unknown>): string {
  const dir = dirs();
  mkdirSync(path.join(dir, '.tmp'));
  for (const [name, value] of Object.entries(files))
    writeFileSync(path.join(dir, '.tmp', name), typeof value === 'string' ? value : JSON.stringify(value));
  return execFileSync(process.execPath, [script], { cwd: dir, encoding: 'utf8' });
}

const stages = {
  'stage-lint': 'ok',
  'stage-build': 'ok',
  'checks-package.json': { checks: [{ name: 'a', ok: true }] },
  'checks-electronegativity.json': { checks: [{ name: 'b', ok: true }] },
  'vitest.json': { numPassedTests: 10, numFailedTests: 0 },
  'playwright.json': { stats: { expected: 3 } },
};

describe('CI summary', () => {
  it('counts the unit suite run on Node 22 test by test, beside the one on the machine’s Node', () => {
    const out = summary({ ...stages, 'vitest-node22.json': { numPassedTests: 9, numFailedTests: 1 } });
    expect(out).toContain('unit (Node 22): 9 passed, 1 failed');
    expect(out.trim().split('\n').at(-1)).toBe('26 passed, 1 failed');
  });

  it('a Node 22 stage that left no results counts as a failure', () => {
    const out = summary(stages);
    expect(out).toContain('unit (Node 22): no results');
    expect(out.trim().split('\n').at(-1)).toBe('17 passed, 1 failed');
  });
});
