/**
 * The load engine through the core's dispatch, against the simulated gateway over loopback: a counting server
 * in front of the simulator's handler sees how many requests are really open at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { LoadProgress, LoadRecord, ProfilesState, Result } from '../../../shared/contract';
import { createCore, type Core, type Receiver } from '../service';
import { LayeredVault } from '../vault';
import { createSimulatorHandler, DEMO_KEY } from '../simulator';
import { tempDirs } from '../testing/temp-dirs';

const tempDir = tempDirs('gp-load-');

class Window implements Receiver {
  readonly progress: LoadProgress[] = [];
  send(name: string, payload: unknown): void {
    if (name === 'load:progress') this.progress.push(payload as LoadProgress);
  }
  async ended(loadId: string, timeoutMs = 20_000): Promise<LoadProgress> {
    const start = Date.now();
    for (;;) {
      const end = this.progress.find((p) => p.loadId === loadId && (p.state === 'finished' || p.state === 'stopped'));
      if (end) return end;
      if (Date.now() - start > timeoutMs) throw new Error(`load ${loadId} did not end`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  async until(pred: (p: LoadProgress) => boolean, timeoutMs = 10_000): Promise<LoadProgress> {
    const start = Date.now();
    for (;;) {
      const hit = this.progress.find(pred);
      if (hit) return hit;
      if (Date.now() - start > timeoutMs) throw new Error('no such progress');
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

let server: http.Server;
let url: string;
const open = { now: 0, max: 0, total: 0 };
let core: Core;
let dataDir: string;
/** What the host's own dialog (outside the page) answers, and the questions it was asked. */
const dialog = { answer: false, asked: [] as string[] };

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
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = tempDir();
  core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    demoGateway: { baseUrl: url, key: DEMO_KEY },
    timeouts: { idleMs: 3_000 },
    confirmer: { confirm: async (q) => (dialog.asked.push(q.message), dialog.answer) },
  });
});
afterAll(async () => {
  await core.close();
  await new Promise((r) => server.close(r));
});

const body = (model: string) => ({
  model,
  max_tokens: 32,
  stream: true,
  messages: [{ role: 'user', content: 'Hello there' }],
});
const start = async (w: Window, input: Record<string, unknown>) =>
  value<{ loadId: string }>(
    await core.dispatch(
      'load:start',
      { profileId: 'demo', protocol: 'messages', body: body('claude-sim-haiku'), ...input },
      w,
    ),
  ).loadId;
const record = async (w: Window, loadId: string) => value<LoadRecord>(await core.dispatch('load:get', { loadId }, w));

describe('load engine against the simulator', () => {
  it('never has more requests open than the concurrency, and measures every one', async () => {
    const w = new Window();
    open.max = 0;
    const loadId = await start(w, { requests: 24, concurrency: 4 });
    const end = await w.ended(loadId);
    expect(end).toMatchObject({ state: 'finished', done: 24, failed: 0, inFlight: 0 });
    expect(open.max).toBe(4);
    const rec = await record(w, loadId);
    expect(rec.rows.map((r) => r.i)).toEqual([...Array(24).keys()]);
    expect(
      rec.rows.every((r) => r.verdict === 'complete' && r.ttftMs! > 0 && r.ttftMs! <= r.e2eMs && r.outputTokens! > 0),
    ).toBe(true);
    // A content event after the first gives an ITL sample; the first one's time is the TTFT.
    expect(rec.rows.every((r) => r.itlMs.length > 0)).toBe(true);
    expect(rec.summary).toMatchObject({
      sent: 24,
      completed: 24,
      failed: 0,
      successRate: 1,
      ttftMs: { count: 24 },
      e2eMs: { count: 24 },
    });
    expect(rec.summary.itlMs.count).toBe(rec.rows.reduce((s, r) => s + r.itlMs.length, 0));
    expect(rec.overheadMs).toBeGreaterThan(0);
    // The window heard aggregates, a point per request in all, not one push per event.
    expect(w.progress.flatMap((p) => p.points)).toHaveLength(24);
    expect(w.progress.length).toBeLessThan(rec.summary.durationMs / 250 + 5);
    // Rate-limit headers are sampled when they change; the request as sent has its key redacted.
    expect(rec.rateLimits.find((s) => s.name === 'anthropic-ratelimit-requests-remaining')?.value).toBe('999');
    expect(rec.request?.headers['x-api-key']).not.toContain(DEMO_KEY);
    expect(readFileSync(path.join(dataDir, 'load-runs', `${loadId}.json`), 'utf8')).not.toContain(DEMO_KEY);
  });

  it('Stop cancels every request in flight at once and sends no more', async () => {
    const w = new Window();
    open.max = 0;
    const loadId = await start(w, { requests: 40, concurrency: 6, body: body('sim-fault-slow') });
    await w.until((p) => p.loadId === loadId && p.inFlight === 6);
    expect(value<{ stopped: boolean }>(await core.dispatch('load:stop', { loadId }, w)).stopped).toBe(true);
    const end = await w.ended(loadId, 5_000);
    const total = open.total;
    expect(end.state).toBe('stopped');
    const rec = await record(w, loadId);
    expect(rec.rows.filter((r) => r.verdict === 'cancelled')).toHaveLength(6);
    expect(rec.rows.length).toBeLessThan(40);
    expect(rec.summary.cancelled).toBe(6);
    expect(rec.state).toBe('stopped');
    expect(open.max).toBe(6);
    await expect.poll(() => open.now).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(open.total).toBe(total);
  });

  it('counts 429s and 529s by class, with the retry-after the gateway sent', async () => {
    const w = new Window();
    const limited = await start(w, { requests: 6, concurrency: 3, body: body('sim-fault-429') });
    const overloaded = await start(w, { requests: 5, concurrency: 5, body: body('sim-fault-overloaded') });
    await w.ended(limited);
    await w.ended(overloaded);
    const a = await record(w, limited);
    expect(a.summary).toMatchObject({ completed: 0, failed: 6, successRate: 0 });
    expect(a.summary.errors).toEqual([expect.objectContaining({ key: 'HTTP 429', cls: 'http', count: 6 })]);
    expect(a.summary.errors[0].examples[0].reason).toContain('rate');
    expect(a.rateLimits).toContainEqual(expect.objectContaining({ name: 'retry-after', value: '30' }));
    const b = await record(w, overloaded);
    expect(b.summary.errors).toEqual([expect.objectContaining({ key: 'HTTP 529', count: 5 })]);
  });

  it('a load run is one saved entry, listed newest first and deletable', async () => {
    const w = new Window();
    const { runs } = value<{ runs: { loadId: string; summary: { sent: number } }[] }>(
      await core.dispatch('load:list', {}, w),
    );
    expect(runs.length).toBeGreaterThanOrEqual(4);
    const newest = runs[0].loadId;
    expect(value<{ deleted: boolean }>(await core.dispatch('load:delete', { loadId: newest }, w)).deleted).toBe(true);
    expect((await core.dispatch('load:get', { loadId: newest }, w)).ok).toBe(false);
    // Not N runs in History.
    const history = value<{ total: number }>(await core.dispatch('history:list', {}, w));
    expect(history.total).toBe(0);
  });

  it('paces requests to the target rate, and stops at the duration cap', async () => {
    const w = new Window();
    const paced = await start(w, { requests: 6, concurrency: 6, ratePerSec: 20 });
    await w.ended(paced);
    const rows = (await record(w, paced)).rows;
    for (const r of rows) expect(r.startMs).toBeGreaterThanOrEqual(r.i * 50 - 1);
    const capped = await start(w, { requests: 30, concurrency: 2, durationCapS: 0.3, body: body('sim-fault-slow') });
    await w.ended(capped, 5_000);
    const rec = await record(w, capped);
    expect(rec).toMatchObject({ state: 'stopped', endReason: expect.stringContaining('duration cap of 0.3 s') });
  });

  it("stops a window's load runs when the window goes away; another window cannot stop them", async () => {
    const w = new Window();
    const other = new Window();
    const loadId = await start(w, { requests: 30, concurrency: 3, body: body('sim-fault-slow') });
    await w.until((p) => p.loadId === loadId && p.inFlight === 3);
    expect(value<{ stopped: boolean }>(await core.dispatch('load:stop', { loadId }, other)).stopped).toBe(false);
    core.receiverClosed(w);
    expect((await w.ended(loadId, 5_000)).state).toBe('stopped');
    expect((await record(other, loadId)).endReason).toContain('The window closed');
  });

  it('asks the host before more than 100 requests to a gateway that is not the Demo gateway; its No sends nothing', async () => {
    const w = new Window();
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Paid', baseUrl: url, key: DEMO_KEY }, w),
    );
    const profileId = saved.profiles.find((p) => p.name === 'Paid')!.id;
    const input = { profileId, protocol: 'messages', body: body('claude-sim-haiku'), requests: 101, concurrency: 32 };
    const sentBefore = open.total;
    dialog.answer = false;
    const refused = await core.dispatch('load:start', input, w);
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_confirmed' } });
    expect(dialog.asked.at(-1)).toBe(`Send 101 requests to ${new URL(url).origin}? (profile “Paid”)`);
    // The field a caller used to send as the yes is no longer one.
    expect((await core.dispatch('load:start', { ...input, confirmed: true }, w)).ok).toBe(false);
    expect(open.total).toBe(sentBefore);
    expect(
      (
        await core.dispatch(
          'load:start',
          { profileId: 'demo', protocol: 'messages', body: {}, requests: 10_001, concurrency: 1 },
          w,
        )
      ).ok,
    ).toBe(false);
    expect(
      (
        await core.dispatch(
          'load:start',
          { profileId: 'demo', protocol: 'messages', body: {}, requests: 1, concurrency: 65 },
          w,
        )
      ).ok,
    ).toBe(false);
    dialog.answer = true;
    const loadId = value<{ loadId: string }>(await core.dispatch('load:start', input, w)).loadId;
    expect((await w.ended(loadId)).done).toBe(101);
  });

  it('a host that cannot ask outside the page (the browser host) refuses more than 100, and says how to run it', async () => {
    const dir = tempDir();
    const web = await createCore({
      dataDir: dir,
      host: 'web',
      version: 'test',
      vault: new LayeredVault(undefined, undefined),
      demoGateway: { baseUrl: url, key: DEMO_KEY },
    });
    try {
      const w = new Window();
      const saved = value<ProfilesState>(
        await web.dispatch('profiles:save', { name: 'Paid', baseUrl: url, key: DEMO_KEY }, w),
      );
      const profileId = saved.profiles.find((p) => p.name === 'Paid')!.id;
      const sentBefore = open.total;
      const input = { profileId, protocol: 'messages', body: body('claude-sim-haiku'), requests: 101, concurrency: 1 };
      const refused = await web.dispatch('load:start', input, w);
      expect(refused).toMatchObject({ ok: false, error: { code: 'confirm_unavailable' } });
      expect(!refused.ok && refused.error.message).toContain('Run 100 or fewer, or use the desktop app (npm start)');
      expect(open.total).toBe(sentBefore);
      const demo = { ...input, profileId: 'demo', concurrency: 32 };
      const loadId = value<{ loadId: string }>(await web.dispatch('load:start', demo, w)).loadId;
      expect((await w.ended(loadId)).done).toBe(101);
    } finally {
      await web.close();
    }
  });

  it('scrubs a key the gateway echoes from rows and samples, and a key changed mid-run too', async () => {
    const keys = ['sk-load/KEY-0123456789abcdef', 'sk-next/KEY-fedcba9876543210'];
    const seen = new Set<string>();
    const echo = http.createServer((req, res) => {
      const key = String(req.headers['x-api-key'] ?? '');
      seen.add(key);
      req.resume();
      req.on('end', () => {
        const escaped = key.replaceAll('/', '\\/');
        const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
        const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3 } };
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'x-ratelimit-echo': `for ${key}` });
          res.end(
            event('message_start', { type: 'message_start', message }) +
              event('error', { type: 'error', error: { type: 'api_error KEY', message: 'bad key KEY' } }).replaceAll(
                'KEY',
                escaped,
              ),
          );
        }, 15);
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    try {
      const w = new Window();
      const baseUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const saved = value<ProfilesState>(
        await core.dispatch('profiles:save', { name: 'Echo', baseUrl, key: keys[0] }, w),
      );
      const profileId = saved.profiles.find((p) => p.name === 'Echo')!.id;
      const loadId = await start(w, { profileId, requests: 40, concurrency: 1 });
      await w.until((p) => p.loadId === loadId && p.done >= 3);
      value(await core.dispatch('profiles:save', { id: profileId, name: 'Echo', baseUrl, key: keys[1] }, w));
      await w.ended(loadId);
      // Both keys went out: the request was built again for the changed profile.
      expect([...seen]).toEqual(keys);
      const rec = await record(w, loadId);
      expect(rec.rows).toHaveLength(40);
      expect(rec.rows.every((r) => r.verdict === 'error-event' && r.reason.includes('bad key [redacted]'))).toBe(true);
      expect(rec.rows.every((r) => r.errorType === 'api_error [redacted]')).toBe(true);
      expect(rec.rateLimits.map((s) => s.value)).toContain('for [redacted]');
      const out = [JSON.stringify(rec), readFileSync(path.join(dataDir, 'load-runs', `${loadId}.json`), 'utf8')];
      out.push(...w.progress.map((p) => JSON.stringify(p)));
      for (const key of keys)
        for (let i = 0; i + 8 <= key.length; i++)
          for (const text of out) expect(text).not.toContain(key.slice(i, i + 8));
    } finally {
      echo.closeAllConnections();
      await new Promise((r) => echo.close(r));
    }
  });
});
