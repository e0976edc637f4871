/**
 * npm run bench — History at scale, over real files in a temp data dir: 10,000 recorded runs (each with 20
 * events, a 1 KB prompt and system text, and 2 KB of output). Budgets: the store opens and answers the first
 * page of the list in < 1 s; the first search over the whole request and output of every run (which reads the
 * search file, history-search.ts) in < 1 s, and a word of one run's prompt finds it; a search after that in
 * < 100 ms; history from before the search file (every run file's header read once) in < 3 s; in the window
 * (the browser host in Chromium), the History tab shows its first rows < 1 s after it is clicked.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RecordedRun } from '../shared/contract';
import { encodeRun, HistoryStore } from '../electron/core/history-store';
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { buildAll, isStale } from '../scripts/build.mjs';

const RUNS = 10_000;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-hbench-'));
const failures: string[] = [];

function run(i: number): RecordedRun {
  const runId = `run_${String(i).padStart(6, '0')}`;
  // The word to find sits at the end of one run's 2 KB output: past where search used to stop it would be missed.
  const text = `${'lorem ipsum dolor sit amet '.repeat(75)}${i === 4321 ? 'NEEDLE' : 'hay'}`;
  const startedAt = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  // The prompt word sits in one run's request only, never in any output.
  const prompt = `${'please summarise the quarterly figures again '.repeat(20)}${i === 1234 ? 'OSPREY' : 'heron'}`;
  const body = JSON.stringify({
    model: 'gpt-sim-mini',
    messages: [
      { role: 'system', content: 'You are a careful analyst.' },
      { role: 'user', content: prompt },
    ],
  });
  const events = Array.from({ length: 20 }, (_, seq) => ({
    seq,
    t: seq * 5,
    type: 'chunk',
    data: `{"n":${seq}}`,
    size: 12,
  }));
  return {
    ledger: {
      runId,
      protocol: 'chat',
      profileId: 'p',
      profileName: 'Demo',
      model: 'gpt-sim-mini',
      stream: true,
      method: 'POST',
      url: 'u',
      headers: {},
      body,
      bodyBytes: body.length,
      startedAt,
      warnings: [],
    },
    events,
    origin: 'composer',
    result: {
      verdict: 'complete',
      reason: 'ok',
      metrics: { status: 200, totalMs: 100, events: 20, bytes: 240, usage: {} },
      transcript: { blocks: [{ kind: 'text', text }], usage: {} },
      warnings: [],
      endedAt: startedAt,
    },
  };
}

try {
  const dir = path.join(dataDir, 'history');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < RUNS; i++) {
    const r = run(i);
    writeFileSync(path.join(dir, `${r.ledger.runId}.jsonl`), await encodeRun(r));
  }
  writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({ version: 1, maxRuns: 100_000, maxBytes: 100 * 1024 ** 3 }),
  );
  // The first load rebuilds the index from the run files and writes it; the measured opens read that index.
  await new HistoryStore(dataDir).load();

  const time = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
    const t = performance.now();
    const value = await fn();
    return [performance.now() - t, value];
  };
  const [openMs, page] = await time(async () => {
    const h = new HistoryStore(dataDir);
    await h.load();
    return { h, list: await h.list({ limit: 200, offset: 0 }) };
  });
  const { h } = page;
  if (page.list.total !== RUNS) failures.push(`listed ${page.list.total} runs, not ${RUNS}`);
  const found = (r: { runs: { runId: string }[] }) => r.runs.map((x) => x.runId).join();
  const [promptMs, byPrompt] = await time(() => h.list({ text: 'osprey', limit: 200, offset: 0 }));
  const [firstMs, first] = await time(() => h.list({ text: 'needle', limit: 200, offset: 0 }));
  const [againMs, again] = await time(() => h.list({ text: 'lorem hay', limit: 200, offset: 0 }));
  if (found(byPrompt) !== 'run_001234') failures.push('a word of one prompt did not find its run');
  if (found(first) !== 'run_004321') failures.push('the output search did not find the one run with the word');
  if (again.total !== RUNS - 1) failures.push(`the second search found ${again.total} runs, not ${RUNS - 1}`);
  // History written before the search file existed: the first search reads every run file's header once.
  rmSync(path.join(dir, 'search.jsonl'));
  const older = new HistoryStore(dataDir);
  await older.load();
  const [olderMs, olderFound] = await time(() => older.list({ text: 'osprey', limit: 200, offset: 0 }));
  if (found(olderFound) !== 'run_001234') failures.push('history from before the search file: the prompt word missed');
  const ratio = (ms: number, budget: number) => `${(ms / budget).toFixed(2)}× budget`;
  console.log(
    `History, ${RUNS.toLocaleString('en-US')} runs: open + first page ${Math.round(openMs)} ms (budget < 1000, ${ratio(openMs, 1000)})`,
  );
  console.log(
    `History search, a word of one prompt among ${RUNS.toLocaleString('en-US')} runs: first ${Math.round(promptMs)} ms ` +
      `(reads the search file; budget < 1000, ${ratio(promptMs, 1000)}); then by output ${firstMs.toFixed(1)} ms and ` +
      `${againMs.toFixed(1)} ms (budget < 100, ${ratio(Math.max(firstMs, againMs), 100)})`,
  );
  console.log(
    `History from before the search file: first search ${Math.round(olderMs)} ms ` +
      `(reads every run file's header; budget < 3000, ${ratio(olderMs, 3000)})`,
  );
  if (openMs >= 1000) failures.push(`open ${Math.round(openMs)} ms ≥ 1000 ms`);
  if (promptMs >= 1000) failures.push(`first search ${Math.round(promptMs)} ms ≥ 1000 ms`);
  if (firstMs >= 100 || againMs >= 100) failures.push(`search ${Math.max(firstMs, againMs).toFixed(1)} ms ≥ 100 ms`);
  if (olderMs >= 3000) failures.push(`first search of older history ${Math.round(olderMs)} ms ≥ 3000 ms`);
  await measureWindow();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

/** The History tab in a real window over the same data dir: click to first rows drawn. */
async function measureWindow(): Promise<void> {
  if (isStale()) await buildAll({ quiet: true });
  const args = ['dist/web/cli.mjs', '--port', '0', '--no-open', '--data-dir', dataDir];
  const host = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const url = await new Promise<string>((resolve) => {
      let buf = '';
      host.stdout!.on('data', (d) => {
        buf += d;
        const m = /(http:\/\/\S+)/.exec(buf);
        if (m) resolve(m[1]);
      });
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    await page.getByRole('combobox', { name: 'Profile' }).waitFor();
    const t = performance.now();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByText('lorem ipsum').first().waitFor();
    const ms = performance.now() - t;
    const rows = await page.getByRole('listitem').count();
    console.log(
      `History tab over ${RUNS.toLocaleString('en-US')} runs: first rows in ${Math.round(ms)} ms ` +
        `(budget < 1000), ${rows} rows drawn`,
    );
    if (ms >= 1000) failures.push(`History tab ${Math.round(ms)} ms ≥ 1000 ms`);
    if (rows > 100) failures.push(`${rows} rows drawn: the list is not virtualized`);
  } finally {
    await browser.close();
    host.kill('SIGTERM');
  }
}
console.log(failures.length ? `\nOver budget: ${failures.join('; ')}` : '\nHistory within budget.');
process.exitCode = failures.length ? 1 : 0;
