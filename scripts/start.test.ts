import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const hasBinary = () => {
  const f = path.resolve('node_modules/electron/path.txt');
  return existsSync(f) && existsSync(path.resolve('node_modules/electron/dist', readFileSync(f, 'utf8').trim()));
};

describe('npm start', () => {
  it.skipIf(hasBinary())('where the Electron binary cannot be had, says so in one sentence and points to npm run web', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ['scripts/start.mjs'], { timeout: 60_000, env: { ...process.env, ELECTRON_GET_USE_PROXY: '', electron_config_cache: '/nonexistent-cache' } }, (err, _out, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^The Electron binary could not be installed .* run `npm run web` .*\.$/);
  });
});
