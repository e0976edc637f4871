/**
 * Never lose data: a writer killed with SIGKILL at random moments leaves the previous or the new version of
 * the file, whole, every time.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonAtomic } from './atomic-file';

const child = path.join(import.meta.dirname, 'testing/atomic-writer-child.ts');

describe('atomic files', () => {
  it('survives SIGKILL mid-write, 30 times at random points', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gp-kill-'));
    const file = path.join(dir, 'data.json');
    try {
      await writeJsonAtomic(file, { v: -1, size: 1, payload: 'x' });
      let lastV = -1;
      let advanced = 0;
      for (let round = 0; round < 30; round++) {
        const p = spawn(process.execPath, ['--import', 'tsx', child, file, String(lastV + 1)], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        await new Promise<void>((resolve) => p.stdout!.once('data', () => resolve()));
        await new Promise((r) => setTimeout(r, Math.random() * 40));
        p.kill('SIGKILL');
        await new Promise((r) => p.once('exit', r));
        const doc = JSON.parse(readFileSync(file, 'utf8')) as { v: number; size: number; payload: string };
        expect(doc.payload.length).toBe(doc.size);
        expect(doc.v).toBeGreaterThanOrEqual(lastV);
        if (doc.v > lastV) advanced++;
        lastV = doc.v;
      }
      expect(advanced).toBe(30);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('moves a corrupt or mis-shaped file aside and says why', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gp-corrupt-'));
    try {
      writeFileSync(path.join(dir, 'a.json'), '{"version":');
      const a = await readJsonFile(path.join(dir, 'a.json'), z.object({ version: z.number() }));
      expect(a.problem?.message).toMatch(/a\.json is not valid JSON .* moved aside to a\.json\.corrupt-/);
      writeFileSync(path.join(dir, 'b.json'), '{"version":"two"}');
      const b = await readJsonFile(path.join(dir, 'b.json'), z.object({ version: z.number() }));
      expect(b.problem?.message).toMatch(/b\.json does not match the expected format at version/);
      expect(await readJsonFile(path.join(dir, 'missing.json'), z.object({}))).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
