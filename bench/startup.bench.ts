/**
 * npm run bench — how soon the window is usable (docs/architecture.md §9): first contentful paint and "Send
 * ready" (the default tab's Send button enabled and its Message box editable), on the browser host with the Demo
 * gateway in Chromium, cold (a fresh browser context per load, so no HTTP or code cache), median of RUNS loads.
 * Budget: each at most half of what the renderer took before the tabs' code was split.
 *
 * "Before" is measured here, not only remembered: the renderer of BASELINE_COMMIT (one script with every tab) is
 * built from git into .tmp/ and served by a second host, and its loads alternate with the current build's, so
 * both meet the same machine load; on the shared build machine the wall times of one run differ by 2× from the
 * next. The ratio of those medians is the gate. Where that commit cannot be built (a shallow clone), the gate
 * falls back to the figures recorded in BASELINE.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build as viteBuild } from 'vite';
import { buildAll, isStale } from '../scripts/build.mjs';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

/** The last commit before the split: the renderer as one 1.37 MB script. */
const BASELINE_COMMIT = '83cd0a4c433372aa3b78bd7db044c5740acb923a';
/**
 * That commit's figures, measured with this bench's first version on the 2-core build machine shared by eight
 * sessions (load average 6–18), 2026-11-28, before any change: the median of six runs' medians of 11 cold
 * loads (first paint 760–1968 ms, Send ready 802–2080 ms). The issue, on a quieter machine: 450 and 600 ms.
 */
const BASELINE = { firstPaintMs: 1202, sendReadyMs: 1337 };
const BUDGET = 0.5;
const RUNS = 11;

/**
 * Set before the page's own scripts run: records the first moment Send is enabled and the Message box takes
 * text. A string, not a function: the TS loader's helpers (__name) do not exist in the page.
 */
const WATCH = `(() => {
  const ready = () => {
    const send = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Send');
    const box = document.querySelector('textarea[aria-label="Message"]');
    return !!send && !send.disabled && !!box && !box.matches(':disabled') && !box.readOnly;
  };
  const observer = new MutationObserver(() => {
    if (window.__sendReady === undefined && ready()) {
      window.__sendReady = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
})()`;

const READ = `(() => {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const js = performance
    .getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname.endsWith('.js') && e.responseEnd <= window.__sendReady);
  return {
    firstPaint: fcp ? fcp.startTime : NaN,
    sendReady: window.__sendReady,
    jsBytes: js.reduce((n, e) => n + e.decodedBodySize, 0),
  };
})()`;

interface Load {
  firstPaint: number;
  sendReady: number;
  jsBytes: number;
}

interface Host {
  url: string;
  stop(): void;
}

/** The browser host on a temp data dir (so the Demo gateway), serving the renderer in `staticDir`. */
async function startHost(staticDir: string): Promise<Host> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-startup-'));
  const child = spawn(process.execPath, ['dist/web/cli.mjs', '--port', '0', '--no-open', '--data-dir', dataDir], {
    env: { ...process.env, GATEWAY_PLAYGROUND_STATIC: staticDir, GATEWAY_BASE_URL: '', GATEWAY_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`The host exited with ${code}.`)));
  });
  return {
    url,
    stop() {
      child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** BASELINE_COMMIT's renderer, built once into .tmp/ from git; undefined when git cannot give that commit. */
async function baselineRenderer(): Promise<string | undefined> {
  const dir = path.resolve('.tmp/bench', `startup-baseline-${BASELINE_COMMIT.slice(0, 10)}`);
  const out = path.join(dir, 'dist');
  if (existsSync(path.join(out, 'index.html'))) return out;
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', BASELINE_COMMIT, 'renderer', 'shared', 'vite.config.ts'], {
      maxBuffer: 1 << 28,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  } catch {
    return undefined;
  }
  // Inside the worktree, so its imports resolve to this install's node_modules.
  await viteBuild({
    configFile: path.join(dir, 'vite.config.ts'),
    root: path.join(dir, 'renderer'),
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true },
  });
  return out;
}

/** One cold load: a fresh context, the page opened, waited on until Send is ready. */
async function load(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(WATCH);
    await page.goto(url);
    // Polled from here every 50 ms: a waitForFunction polling each frame would compete with the page it times.
    for (let waited = 0; !(await page.evaluate('window.__sendReady !== undefined')); waited += 50) {
      if (waited > 30_000) throw new Error('Send did not become ready in 30 s.');
      await new Promise((r) => setTimeout(r, 50));
    }
    return (await page.evaluate(READ)) as Load;
  } finally {
    await context.close();
  }
}

/** The scripts index.html loads before anything else runs: its entry and the chunks it preloads. */
function initialScripts(dir: string): number {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\.?\/?([^"]+\.js)"/g);
  return [...files].reduce((n, m) => n + statSync(path.join(dir, m[1])).size, 0);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

if (isStale()) await buildAll({ quiet: true });
const currentDir = path.resolve('dist/renderer');
const baselineDir = await baselineRenderer();
const browser = await chromium.launch(chromiumLaunchOptions());
const current = await startHost(currentDir);
const baseline = baselineDir ? await startHost(baselineDir) : undefined;
const now: Load[] = [];
const before: Load[] = [];
try {
  // One load of each first, not counted: the hosts read their files and the OS caches them once. Which goes
  // first alternates, so neither always meets the other's leftovers.
  for (let i = 0; i <= RUNS; i++) {
    const b = baseline && i % 2 ? await load(browser, baseline.url) : undefined;
    const a = await load(browser, current.url);
    const c = baseline && !(i % 2) ? await load(browser, baseline.url) : b;
    if (i === 0) continue;
    now.push(a);
    if (c) before.push(c);
  }
} finally {
  await browser.close();
  current.stop();
  baseline?.stop();
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const failures: string[] = [];
for (const [what, key, recorded] of [
  ['first paint', 'firstPaint', BASELINE.firstPaintMs],
  ['Send ready', 'sendReady', BASELINE.sendReadyMs],
] as const) {
  const ms = median(now.map((l) => l[key]));
  const measured = before.length ? median(before.map((l) => l[key])) : undefined;
  const base = measured ?? recorded;
  const ratio = ms / base;
  const over = !(ratio <= BUDGET);
  if (over) failures.push(`${what} ${ratio.toFixed(2)}× the renderer before the split`);
  console.log(
    `${over ? 'FAIL' : 'ok  '} Start-up, ${what}: median ${ms.toFixed(0)} ms over ${now.length} cold loads, ` +
      (measured === undefined
        ? `${ratio.toFixed(2)}× the recorded ${recorded} ms (the baseline commit could not be built)`
        : `${ratio.toFixed(2)}× the renderer before the split, loaded in turn (${measured.toFixed(0)} ms; ` +
          `recorded ${recorded} ms)`) +
      ` (budget ≤ ${BUDGET}×)`,
  );
}
console.log(
  `Start-up, initial JS (named by index.html): ${kb(initialScripts(currentDir))}` +
    (baselineDir ? ` (before the split ${kb(initialScripts(baselineDir))})` : '') +
    `; JS loaded by Send ready: ${kb(median(now.map((l) => l.jsBytes)))}` +
    (before.length ? ` (before ${kb(median(before.map((l) => l.jsBytes)))})` : ''),
);
console.log(failures.length ? `\nOver budget: ${failures.join('; ')}` : '\nStart-up within budget.');
process.exitCode = failures.length ? 1 : 0;
