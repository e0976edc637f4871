/**
 * The browser host's command line, run as a user runs it: a data folder it cannot use is one sentence on
 * stderr and a non-zero exit, never a stack trace; the data folder it creates is the user's alone; the browser
 * opener it starts gets no gateway secret in its environment.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, GATEWAY_BASE_URL: '', GATEWAY_API_KEY: '', GATEWAY_PLAYGROUND_DATA: '' };
    execFile(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'electron/web/cli.ts'), ...args],
      { cwd: root, env, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
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

/**
 * Starts the host as `npm run web` does, with an `xdg-open` of our own first on PATH (no browser can start
 * here) that writes the environment it was given to a file; resolves once that file is written.
 */
async function startWithOpener(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ openerEnv: string; stop: () => void }> {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'gp-bin-'));
  dirs.push(bin);
  const dump = path.join(bin, 'env.txt');
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nenv > '${dump}.tmp' && mv '${dump}.tmp' '${dump}'\n`);
  chmodSync(path.join(bin, 'xdg-open'), 0o755);
  // The built renderer need not exist for this: a page of one line stands in for it.
  writeFileSync(path.join(bin, 'index.html'), '<!doctype html><title>GP</title>');
  const child = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'electron/web/cli.ts'), '--data-dir', dataDir, '--port', '0'],
    {
      cwd: root,
      env: {
        ...process.env,
        GATEWAY_PLAYGROUND_DATA: '',
        GATEWAY_PLAYGROUND_STATIC: bin,
        ...env,
        PATH: `${bin}:${process.env.PATH}`,
      },
      stdio: 'ignore',
    },
  );
  const stop = () => void child.kill('SIGTERM');
  for (let i = 0; i < 300 && !existsSync(dump); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(dump)) {
    stop();
    throw new Error('the host never started the browser opener');
  }
  return { openerEnv: readFileSync(dump, 'utf8'), stop };
}

describe('cli: what the host leaves on disk and hands to the browser opener', () => {
  it('creates the data folder and history/ for the user alone, and the opener gets no gateway secret', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'gp-cli-'));
    dirs.push(tmp);
    const dataDir = path.join(tmp, 'data');
    const { openerEnv, stop } = await startWithOpener(dataDir, {
      GATEWAY_API_KEY: 'sk-env-key-SECRET-0123456789',
      GATEWAY_BASE_URL: 'https://gw.example.com',
      OPENAI_API_KEY: 'sk-openai-SECRET-abcdef',
      MY_SERVICE_TOKEN: 'tok-SECRET-4567',
      https_proxy: 'http://user:proxy-SECRET@proxy.corp:3128',
      GP_ORDINARY_SETTING: 'kept-as-is',
    });
    try {
      expect(openerEnv).not.toContain('SECRET');
      expect(openerEnv).not.toContain('GATEWAY_');
      expect(openerEnv).toContain('GP_ORDINARY_SETTING=kept-as-is');
      expect(openerEnv).toMatch(/^PATH=/m);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(dataDir, 'history')).mode & 0o777).toBe(0o700);
      for (const f of readdirSync(dataDir)) {
        const st = statSync(path.join(dataDir, f));
        if (st.isFile()) expect(st.mode & 0o777, f).toBe(0o600);
      }
    } finally {
      stop();
    }
  }, 60_000);
});
