/**
 * Shapes of traffic (docs/load.md "Shapes") through the core's dispatch, against the simulated gateway over
 * loopback: a counting server in front of the simulator's handler sees how many requests are really open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { LoadProgress, LoadRecord, Result } from '../../../shared/contract';
import { targetAt, type LoadShape } from '../../../shared/load/shape';
import { createCore, type Core, type Receiver } from '../service';
import { LayeredVault } from '../vault';
import { createSimulatorHandler, DEMO_KEY } from '../simulator';
import { tempDirs } from '../testing/temp-dirs';

const tempDir = tempDirs('gp-shapes-');

class Window implements Receiver {
  readonly progress: LoadProgress[] = [];
  send(name: string, payload: unknown): void {
    if (name === 'load:progress') this.progress.push(payload as LoadProgress);
  }
  async ended(loadId: string, timeoutMs = 20_000): Promise<void> {
    const start = Date.now();
    while (!this.progress.some((p) => p.loadId === loadId && (p.state === 'finished' || p.state === 'stopped'))) {
      if (Date.now() - start > timeoutMs) throw new Error(`load ${loadId} did not end`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

let server: http.Server;
const open = { now: 0, max: 0, total: 0 };
let core: Core;

beforeAll(async () => {
  const handler = createSimulatorHandler({ delayMs: 5 });
  server = http.createServer((req, res) => {
    open.now++;
    open.total++;
    open.max = Math.max(open.max, open.now);
    res.on('close', () => open.now--);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dataDir = tempDir();
  core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    demoGateway: { baseUrl: url, key: DEMO_KEY },
    timeouts: { idleMs: 3_000 },
  });
});
afterAll(async () => {
  await core.close();
  await new Promise((r) => server.close(r));
});

const body = { model: 'claude-sim-haiku', max_tokens: 32, stream: true, messages: [{ role: 'user', content: 'Hi' }] };

/** Starts a shaped run, samples the gateway's open requests every 10 ms until it ends, and returns its record. */
async function run(shape: LoadShape, requests = 10_000) {
  const w = new Window();
  const input = { profileId: 'demo', protocol: 'messages', body, requests, concurrency: 64, shape };
  const t0 = performance.now();
  const { loadId } = value<{ loadId: string }>(await core.dispatch('load:start', input, w));
  const samples: { t: number; open: number }[] = [];
  const sampler = setInterval(() => samples.push({ t: (performance.now() - t0) / 1000, open: open.now }), 10);
  try {
    await w.ended(loadId);
  } finally {
    clearInterval(sampler);
  }
  const record = value<LoadRecord>(await core.dispatch('load:get', { loadId }, w));
  return { record, samples, progress: w.progress };
}

/** The most requests of one stage that were open at once, from the rows' own start and end times. */
function mostAtOnce(rows: LoadRecord['rows']): number {
  const edges = rows.flatMap((r) => [
    [r.startMs, 1],
    [r.startMs + r.e2eMs, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (now += d));
  return most;
}

describe('load shapes against the simulator', () => {
  it('a ramp keeps the requests open on its line, up and then down, and cancels none to come down', async () => {
    const up = LoadShapeOf({ kind: 'ramp', from: 1, to: 8, durationS: 2 });
    const { record, samples } = await run(up);
    expect(record.state).toBe('finished');
    expect(record.endReason).toContain("The shape's 2 s ended");
    expect(record.config.shape).toEqual(up);
    // Each sample of the gateway's open requests while the ramp ran is within one of the line at that moment.
    const during = samples.filter((s) => s.t > 0.1 && s.t < 1.95);
    const near = during.filter((s) => Math.abs(s.open - targetAt(up, s.t)!.concurrency!) <= 1);
    expect(near.length / during.length).toBeGreaterThan(0.85);
    expect(Math.max(...during.map((s) => s.open))).toBeLessThanOrEqual(8);
    expect(during.filter((s) => s.t < 0.4).every((s) => s.open <= 3)).toBe(true);

    const down = LoadShapeOf({ kind: 'ramp', from: 8, to: 1, durationS: 2 });
    const back = await run(down);
    const late = back.samples.filter((s) => s.t > 1.6 && s.t < 1.95);
    expect(late.every((s) => s.open <= 3)).toBe(true);
    expect(back.record.rows.every((r) => r.verdict === 'complete' && r.stage === 0)).toBe(true);
  });

  it('three stages: every row carries its stage, each stage keeps its concurrency, the status names it', async () => {
    const shape = LoadShapeOf({
      kind: 'stages',
      stages: [
        { durationS: 0.8, concurrency: 2 },
        { durationS: 0.8, concurrency: 6 },
        { durationS: 0.8, concurrency: 3 },
      ],
    });
    const { record, progress } = await run(shape);
    expect(record.state).toBe('finished');
    const byStage = [0, 1, 2].map((k) => record.rows.filter((r) => r.stage === k));
    expect(byStage.map((rows) => rows.length).every((n) => n > 0)).toBe(true);
    expect(byStage.flat()).toHaveLength(record.rows.length);
    // Stage k's requests were never more than its concurrency at once, and reached it.
    expect(byStage.map(mostAtOnce)).toEqual([2, 6, 3]);
    // A request belongs to the stage it was sent in: sent within that stage's time.
    for (const [k, rows] of byStage.entries())
      for (const r of rows) expect(r.startMs).toBeGreaterThanOrEqual(k * 800 - 1);
    const labels = new Set(progress.flatMap((p) => (p.stage ? [p.stage.label] : [])));
    expect(labels).toContain('Stage 2 of 3 · 6 at once');
    expect(progress.every((p) => p.total >= p.done)).toBe(true);
  });

  it('a Poisson soak sends about rate × duration, spaced unevenly; a steady one evenly', async () => {
    const rate = 50;
    const durationS = 2;
    const poisson = await run(LoadShapeOf({ kind: 'soak', ratePerSec: rate, durationS, arrival: 'poisson' }));
    const n = poisson.record.rows.length;
    // A Poisson count at mean 100 has a standard deviation of 10: within 4 of them (60–140) but for a 1 in 15,000 draw.
    expect(Math.abs(n - rate * durationS)).toBeLessThanOrEqual(40);
    expect(poisson.record.skipped).toBe(0);
    const cv = (rows: LoadRecord['rows']) => {
      const starts = rows.map((r) => r.startMs).sort((a, b) => a - b);
      const gaps = starts.slice(1).map((s, k) => s - starts[k]);
      const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
      const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
      return sd / mean;
    };
    // Exponential gaps have a coefficient of variation of 1 (even ones 0, but for the timers' jitter).
    expect(cv(poisson.record.rows)).toBeGreaterThan(0.6);
    const steady = await run(LoadShapeOf({ kind: 'soak', ratePerSec: rate, durationS: 1 }));
    expect(steady.record.rows).toHaveLength(rate);
    // Evenly: the k-th arrival is due k / rate s in, and none goes before its time.
    const starts = steady.record.rows.map((r) => r.startMs).sort((a, b) => a - b);
    for (const [k, s] of starts.entries()) expect(s).toBeGreaterThanOrEqual((k * 1000) / rate - 1);
  });

  it('skips and counts open-loop arrivals that find 64 in flight, and stops at the request limit', async () => {
    const slow = { ...body, model: 'sim-fault-slow' };
    const w = new Window();
    const shape = LoadShapeOf({ kind: 'soak', ratePerSec: 200, durationS: 0.6 });
    const input = { profileId: 'demo', protocol: 'messages', body: slow, requests: 1_000, concurrency: 64, shape };
    const { loadId } = value<{ loadId: string }>(await core.dispatch('load:start', input, w));
    open.max = 0;
    await w.ended(loadId);
    const record = value<LoadRecord>(await core.dispatch('load:get', { loadId }, w));
    expect(record.rows).toHaveLength(64);
    expect(open.max).toBeLessThanOrEqual(64);
    expect(record.skipped).toBeGreaterThan(40);
    expect(record.endReason).toMatch(/arrivals? skipped at the cap of 64 in flight/);

    const limited = await run(LoadShapeOf({ kind: 'soak', ratePerSec: 100, durationS: 5 }), 12);
    expect(limited.record.rows).toHaveLength(12);
    expect(limited.record.endReason).toContain('The limit of 12 requests was reached');
    expect(limited.samples.at(-1)!.t).toBeLessThan(2);
  });
});

/** A shape as the contract's default fills it (arrival: steady). */
function LoadShapeOf(shape: Record<string, unknown>): LoadShape {
  return (
    'arrival' in shape || (shape.kind !== 'soak' && shape.kind !== 'stages') ? shape : { ...shape, arrival: 'steady' }
  ) as LoadShape;
}
