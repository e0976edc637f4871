/**
 * The browser host's command line, run as a user runs it: a data folder it cannot use is one sentence on
 * stderr and a non-zero exit, never a stack trace.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, GATEWAY_BASE_URL: '', GATEWAY_API_KEY: '', GATEWAY_PLAYGROUND_DATA: '' };
    execFile(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'electron/web/cli.ts'), ...args], { cwd: root, env, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('cli', () => {
  it('a data folder that cannot be created: one sentence naming it, what failed and what to do, and exit code 1', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'gp-cli-'));
    dirs.push(tmp);
    // A file where a folder should be fails even for root, as a read-only folder does for a user.
    writeFileSync(path.join(tmp, 'a-file'), 'x');
    const dataDir = path.join(tmp, 'a-file', 'data');
    const { code, stdout, stderr } = await runCli(['--data-dir', dataDir, '--no-open', '--port', '0']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Gateway Playground cannot start: the data folder ${dataDir} cannot be used (could not create ${dataDir}: a file is where a folder should be, ENOTDIR); ` +
        'make it writable, or start with --data-dir set to a folder you can write to (or set GATEWAY_PLAYGROUND_DATA).\n',
    );
  });
});
