/**
 * E2E harness: each test gets its own browser host process (the real `dist/web/cli.mjs`) with a fresh temp
 * data dir, and can start extra simulated gateways with their own keys and model lists.
 */
import { test as base, expect, type Page, type WebSocket as PwWebSocket } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../electron/core/simulator';

export interface HostHandle {
  url: string;
  dataDir: string;
  /** Stop the host process (the data dir stays). */
  stop(): Promise<void>;
  /** Everything the host process wrote to stdout and stderr so far. */
  output(): string;
}

export async function launchHost(
  opts: { dataDir?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<HostHandle> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'gp-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['dist/web/cli.mjs', '--port', '0', '--no-open', '--data-dir', dataDir, ...(opts.args ?? [])],
    {
      env: { ...process.env, GATEWAY_BASE_URL: '', GATEWAY_API_KEY: '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (stdout += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`The host did not start in time.\n${stderr}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /Gateway Playground: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`The host exited with ${code}.\n${stderr}`)));
  });
  return {
    url,
    dataDir,
    output: () => stdout + stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const hung = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(hung);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

interface Fixtures {
  /** A running browser host with a temp data dir; stopped and cleaned after the test. */
  host: FixtureHost;
  /** The page, opened on the host and ready (the Profile combobox is there). */
  app: Page;
  /**
   * Quit the host and launch it again on the same data folder, as a user quits and reopens the app (with
   * `env`, as if started with those variables), then reopen the page on it; `host` is the new process after.
   */
  relaunch: (opts?: { env?: Record<string, string> }) => Promise<Page>;
  /** Start another simulated gateway (closed after the test). */
  startGateway: (opts?: SimulatorOptions) => Promise<RunningSimulator>;
  /** Every WebSocket frame the page received, as text (for "the key never reaches the renderer"). */
  received: string[];
}

/** Opens the host's page and waits until the app is ready. */
async function open(page: Page, url: string): Promise<Page> {
  await page.goto(url);
  await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toBeVisible();
  return page;
}

/** The `host` fixture: one data folder, and the host process running on it now (`relaunch` replaces it). */
class FixtureHost implements HostHandle {
  private constructor(private running: HostHandle) {}

  static async launch(): Promise<FixtureHost> {
    return new FixtureHost(await launchHost());
  }

  get url(): string {
    return this.running.url;
  }

  get dataDir(): string {
    return this.running.dataDir;
  }

  stop(): Promise<void> {
    return this.running.stop();
  }

  /** What the process running now wrote. */
  output(): string {
    return this.running.output();
  }

  async relaunch(env?: Record<string, string>): Promise<void> {
    await this.running.stop();
    this.running = await launchHost({ dataDir: this.dataDir, env });
  }
}

export const test = base.extend<Fixtures>({
  host: async ({}, use) => {
    const host = await FixtureHost.launch();
    await use(host);
    await host.stop();
    rmSync(host.dataDir, { recursive: true, force: true });
  },
  received: async ({}, use) => {
    await use([]);
  },
  app: async ({ page, host, received }, use) => {
    page.on('websocket', (ws: PwWebSocket) => {
      ws.on('framereceived', (f) => received.push(typeof f.payload === 'string' ? f.payload : f.payload.toString()));
    });
    await use(await open(page, host.url));
  },
  relaunch: async ({ page, host }, use) => {
    await use(async (opts = {}) => {
      await host.relaunch(opts.env);
      return open(page, host.url);
    });
  },
  startGateway: async ({}, use) => {
    const started: RunningSimulator[] = [];
    await use(async (opts) => {
      const sim = await startSimulator({ port: 0, ...opts });
      started.push(sim);
      return sim;
    });
    await Promise.all(started.map((s) => s.close()));
  },
});

export { expect };
