import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Real data folders for a test file: each call makes a fresh one under the OS temp dir, and all of them are
 * removed when the file's tests are done. `made` lists them, newest last.
 */
export function tempDirs(prefix: string): (() => string) & { made: string[] } {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return Object.assign(
    () => {
      const d = mkdtempSync(path.join(os.tmpdir(), prefix));
      made.push(d);
      return d;
    },
    { made },
  );
}
