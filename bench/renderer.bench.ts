/**
 * npm run bench (second half) — the renderer under load, in real Chromium against the browser host
 * (docs/architecture.md §9): during a 20k-event firehose no long task > 100 ms and p95 frame gap < 50 ms; 100k events held
 * in < 150 MB of JS heap; the model filter over 5,000 models < 16 ms p95; no hostile Markdown reply blocks the
 * window more than 100 ms per 10 KB (docs/security.md §13); typing beside a 200-turn conversation (conversation-turns.ts).
 */
import { performance } from 'node:perf_hooks';
import { filterModels, indexModels } from '../renderer/src/features/model-picker/filter';
import { startApp } from '../scripts/app-kit.mjs';
import { measureMarkdown } from './markdown-replies';
import { measureConversation } from './conversation-turns';

const app = await startApp(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
const { browser, url } = app;
const failures: string[] = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  const picker = page.getByRole('combobox', { name: 'Model' });
  await picker.click();
  await picker.fill('sim-firehose');
  await picker.press('Enter');

  async function firehose(n: number) {
    await page.getByLabel('max_tokens').fill(String(n));
    // A string, not a function: the TS loader's helpers (__name) do not exist in the page.
    await page.evaluate(`(() => {
      window.__long = [];
      window.__gaps = [];
      window.__stop = false;
      window.__longAt = [];
      window.__observer?.disconnect();
      window.__observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => { window.__long.push(e.duration); window.__longAt.push(Math.round(e.startTime - window.__t0) + ':' + Math.round(e.duration)); }));
      window.__observer.observe({ type: 'longtask', buffered: false });
      window.__t0 = performance.now();
      let last = performance.now();
      const frame = (t) => { window.__gaps.push(t - last); last = t; if (!window.__stop) requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    })()`);
    const t0 = performance.now();
    await page.getByRole('button', { name: 'Send' }).click();
    // Polled cheaply every 100 ms: a role locator polls every frame and computes accessible names across the
    // page on the page's own main thread, which showed up as the benchmark's own long frames.
    // Done when this run (not the previous one, whose verdict is still shown right after the click) has
    // completed: the verdict reads complete and the Events tab counts at least n events.
    const done = `(() => {
      const status = document.querySelector('[aria-label="Stream status"]')?.textContent ?? '';
      const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent.startsWith('Events ('));
      return status.includes('complete') && Number((tab?.textContent ?? '').replace(/[^0-9]/g, '')) >= ${n};
    })()`;
    for (let waited = 0; !(await page.evaluate(done)); waited += 100) {
      if (waited > 120_000) throw new Error('The firehose did not complete in 2 minutes.');
      await new Promise((r) => setTimeout(r, 100));
    }
    const wall = performance.now() - t0;
    await page.waitForTimeout(300);
    const stats = (await page.evaluate(`(() => {
      window.__stop = true;
      const gaps = [...window.__gaps].sort((a, b) => a - b);
      return { at: window.__longAt.join(' '), maxLong: Math.max(0, ...window.__long), longCount: window.__long.length, frames: gaps.length, p50Gap: gaps[Math.floor(gaps.length * 0.5)] ?? 0, p95Gap: gaps[Math.floor(gaps.length * 0.95)] ?? 0, maxGap: gaps[gaps.length - 1] ?? 0 };
    })()`)) as {
      at: string;
      maxLong: number;
      longCount: number;
      frames: number;
      p50Gap: number;
      p95Gap: number;
      maxGap: number;
    };
    if (process.env.BENCH_DEBUG) console.log('long tasks at (ms since start:duration):', stats.at);
    return { wall, ...stats };
  }

  const r20 = await firehose(20_000);
  console.log(
    `Renderer, 20k-event firehose: wall ${Math.round(r20.wall)} ms, longest task ${Math.round(r20.maxLong)} ms (budget ≤ 100), ${r20.longCount} long tasks, p95 frame gap ${r20.p95Gap.toFixed(1)} ms (budget < 50; median ${r20.p50Gap.toFixed(1)}, max ${r20.maxGap.toFixed(1)} over ${r20.frames} frames)`,
  );
  if (r20.maxLong > 100) failures.push(`longest task ${Math.round(r20.maxLong)} ms > 100 ms`);
  if (r20.p95Gap >= 50) failures.push(`p95 frame gap ${r20.p95Gap.toFixed(1)} ms ≥ 50 ms`);

  const r100 = await firehose(100_000);
  console.log(
    `Renderer, 100k-event firehose after the 20k run: wall ${Math.round(r100.wall)} ms, longest task ${Math.round(r100.maxLong)} ms, ${r100.longCount} long tasks, frame gap p95 ${r100.p95Gap.toFixed(1)} ms, median ${r100.p50Gap.toFixed(1)}, max ${r100.maxGap.toFixed(1)} over ${r100.frames} frames (no budget: shown for comparison)`,
  );
  const heapMb = (await page.evaluate(`(() => {
    if (window.gc) window.gc();
    return performance.memory ? performance.memory.usedJSHeapSize : 0;
  })()`)) as number;
  console.log(
    `Renderer holding 20k + 100k events: JS heap ${(heapMb / 1048576).toFixed(1)} MB (budget < 150 MB for 100k)`,
  );
  if (heapMb / 1048576 >= 150) failures.push(`heap ${(heapMb / 1048576).toFixed(1)} MB ≥ 150 MB`);

  // A fresh page: the firehose runs' events would weigh on every frame measured here.
  const mdPage = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await mdPage.goto(url);
  const markdown = await measureMarkdown(mdPage);
  console.log(`Renderer, gateway Markdown streamed in (main thread blocked; budget ≤ 100 ms per 10 KB):`);
  for (const line of markdown.lines) console.log(line);
  failures.push(...markdown.over);

  const convPage = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await convPage.goto(url);
  const conversation = await measureConversation(convPage);
  console.log(`Renderer, a 200-turn conversation in the composer:`);
  for (const line of conversation.lines) console.log(line);
  failures.push(...conversation.over);
} finally {
  await app.close();
}

const models = Array.from({ length: 5000 }, (_, i) => ({
  id: `vendor-${i % 37}/model-${i}-${i % 7 ? 'chat' : 'reasoning'}`,
  family: (i % 2 ? 'openai' : 'anthropic') as 'openai' | 'anthropic',
  ownedBy: `owner-${i % 11}`,
}));
const index = indexModels(models);
const times: number[] = [];
for (const q of [
  'v',
  've',
  'ven',
  'vendor-1',
  'vendor-1/',
  'vendor-1/model-1',
  'chat',
  'reason',
  'model-49',
  'owner-3 chat',
  'zzz',
  '',
]) {
  for (let k = 0; k < 20; k++) {
    const t = performance.now();
    filterModels(index, q);
    times.push(performance.now() - t);
  }
}
times.sort((a, b) => a - b);
const p95 = times[Math.floor(times.length * 0.95)];
console.log(`Model filter over 5,000 models: p95 ${p95.toFixed(2)} ms per keystroke (budget < 16 ms)`);
if (p95 >= 16) failures.push(`model filter p95 ${p95.toFixed(2)} ms ≥ 16 ms`);
console.log(failures.length ? `\nOver budget: ${failures.join('; ')}` : '\nRenderer within budget.');
process.exitCode = failures.length ? 1 : 0;
