import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDirs } from '../electron/core/testing/temp-dirs';
import { hasDesktop } from './web-host.mjs';

const dirs = tempDirs('gp-start-');

const hasBinary = () => {
  const f = path.resolve('node_modules/electron/path.txt');
  return existsSync(f) && existsSync(path.resolve('node_modules/electron/dist', readFileSync(f, 'utf8').trim()));
};

/**
 * Runs `npm start` as a user would (node scripts/start.mjs) with a browser opener of our own first on PATH
 * that records the URL it is asked to open, until the browser host prints its URL; then stops it.
 */
async function npmStart(display: string | undefined) {
  const bin = dirs();
  const opened = path.join(bin, 'opened.txt');
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > "${opened}"\n`);
  chmodSync(path.join(bin, 'xdg-open'), 0o755);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    GATEWAY_PLAYGROUND_DATA: dirs(),
    GATEWAY_BASE_URL: '',
    electron_config_cache: '/nonexistent-cache',
    DISPLAY: display,
    WAYLAND_DISPLAY: '',
  };
  if (display === undefined) delete env.DISPLAY;
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /Gateway Playground: (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stdout);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}) before printing a URL: ${stderr}`)));
  });
  const page = await fetch(url);
  const html = await page.text();
  // The opener is spawned right after the URL is printed: give it a moment before reading what it wrote.
  await new Promise((r) => setTimeout(r, display ? 1500 : 500));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  const code = await exited;
  return {
    url,
    stderr,
    status: page.status,
    html,
    opened: existsSync(opened) ? readFileSync(opened, 'utf8').trim() : undefined,
    code,
  };
}

describe('npm start', () => {
  it.skipIf(hasBinary() || process.platform !== 'linux')(
    'where the Electron binary cannot be had, says so in one sentence and serves the app in the browser host',
    async () => {
      const run = await npmStart(undefined);
      const sentence = run.stderr.split('\n').find((l) => l.startsWith('The Electron binary'));
      expect(sentence).toMatch(
        /^The Electron binary could not be installed .*starting the same app in your browser.*\.$/,
      );
      // The failed download's own stack stays out of the terminal (it is in a log, or shown with --verbose).
      expect(run.stderr).not.toMatch(/TypeError|fetch failed|^\s+at /m);
      expect(run.status).toBe(200);
      expect(run.html).toContain('<title>Gateway Playground</title>');
      // No display: nothing to open a browser on, so only the URL is printed.
      expect(run.opened).toBeUndefined();
      expect(run.code).toBe(0);
    },
    120_000,
  );

  it.skipIf(hasBinary() || process.platform !== 'linux')(
    'with a desktop, also opens that URL in the browser',
    async () => {
      const run = await npmStart(':0');
      expect(run.opened).toBe(run.url);
    },
    120_000,
  );

  it('knows when there is a desktop to open a browser on', () => {
    expect(hasDesktop({}, 'linux')).toBe(false);
    expect(hasDesktop({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(hasDesktop({ WAYLAND_DISPLAY: 'wayland-0' }, 'freebsd')).toBe(true);
    expect(hasDesktop({}, 'darwin')).toBe(true);
    expect(hasDesktop({}, 'win32')).toBe(true);
  });
});
