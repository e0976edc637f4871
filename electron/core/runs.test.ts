import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunUpdate } from '../../shared/contract';
import { rowsOf } from '../../shared/protocols/event-columns';
import { DEMO_PROFILE_ID, ProfileStore } from './profiles';
import { RunManager } from './runs';
import { DROPPED_NOTE } from './runs/recent';
import { LayeredVault } from './vault';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './simulator';
import { DEFAULT_TIMEOUTS } from './http/timer';

let sim: RunningSimulator;
let dir: string;
let profiles: ProfileStore;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, delayMs: 0 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'gp-runs-'));
  profiles = new ProfileStore(dir, new LayeredVault(undefined, undefined), {
    demo: { baseUrl: sim.url, key: DEMO_KEY },
  });
  await profiles.load();
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const sink = { push: (_u: RunUpdate) => {} };
const start = (runs: RunManager, maxTokens: number) =>
  runs.start(
    {
      profileId: DEMO_PROFILE_ID,
      protocol: 'messages',
      warnings: [],
      origin: 'composer',
      body: { model: 'sim-firehose', max_tokens: maxTokens, stream: true, messages: [{ role: 'user', content: 'go' }] },
    },
    sink,
  );

describe('RunManager keeps recent runs in memory within bounds', () => {
  it('drops the oldest runs once either the run count or the retained event count is over its bound', async () => {
    const runs = new RunManager(profiles, DEFAULT_TIMEOUTS, { runs: 3, events: 220 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { runId, done } = start(runs, 10);
      ids.push(runId);
      const finished = await done;
      expect(finished.result.verdict).toBe('complete');
    }
    // Four small runs: the count bound (3) evicts the first.
    expect(ids.map((id) => runs.get(id) !== undefined)).toEqual([false, true, true, true]);

    const small = runs.get(ids[3])!.events.length;
    const big = start(runs, 200);
    const finished = await big.done;
    expect(finished.events.length + small).toBeGreaterThan(220);
    // The big run plus any small one is over the event bound: the older runs let go of their events but keep
    // their summaries, and the count bound (3) still holds.
    expect(runs.get(big.runId)?.events.length).toBe(finished.events.length);
    const older = ids.map((id) => runs.get(id)).filter((r) => r !== undefined);
    expect(older).toHaveLength(2);
    for (const o of older) {
      expect(o.events).toEqual([]);
      expect(o.result.verdict).toBe('complete');
      expect(o.result.transcript.blocks.length).toBeGreaterThan(0);
      expect(o.result.warnings).toContain(DROPPED_NOTE);
    }

    // A run over the bound on its own is still kept whole: the newest run can always be reopened.
    const huge = start(runs, 500);
    await huge.done;
    expect(runs.get(huge.runId)!.events.length).toBeGreaterThan(220);
    expect(runs.get(big.runId)!.events).toEqual([]);
    expect(runs.get(big.runId)!.result.metrics.events).toBe(finished.events.length);
  });

  it('keeps within a byte budget: older large runs lose their bodies first, then go whole', async () => {
    const probe = new RunManager(profiles, DEFAULT_TIMEOUTS);
    await start(probe, 2000).done;
    const one = probe.recentUsage().bytes;
    expect(one).toBeGreaterThan(100_000);

    const runs = new RunManager(profiles, DEFAULT_TIMEOUTS, { bytes: Math.round(one * 2.5) });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { runId, done } = start(runs, 2000);
      ids.push(runId);
      await done;
      expect(runs.recentUsage().bytes).toBeLessThanOrEqual(Math.round(one * 2.5));
    }
    const newest = runs.get(ids[5])!;
    expect(newest.events.length).toBeGreaterThan(2000);
    // Older runs let go of their events before they go whole: the oldest still kept is a summary.
    const kept = ids
      .slice(0, 5)
      .map((id) => runs.get(id))
      .filter((r) => r !== undefined);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept[0].events).toEqual([]);
    expect(kept[0].result.verdict).toBe('complete');
    expect(kept[0].result.metrics.events).toBeGreaterThan(2000);
    expect(kept[0].result.transcript.blocks.length).toBeGreaterThan(0);
    expect(runs.get(ids[0])?.events ?? []).toEqual([]);
  });
});

describe('RunManager sends every event once, in order, and keeps them all', () => {
  it('the pushed batches add up to the finished run, event for event, and a recent run reopens with them', async () => {
    const runs = new RunManager(profiles);
    const pushed: RunUpdate[] = [];
    const { runId, done } = runs.start(
      {
        profileId: DEMO_PROFILE_ID,
        protocol: 'messages',
        warnings: [],
        origin: 'composer',
        body: { model: 'sim-firehose', max_tokens: 3000, stream: true, messages: [{ role: 'user', content: 'go' }] },
      },
      { push: (u) => pushed.push(u) },
    );
    const finished = await done;
    const events = pushed.flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : []));
    expect(pushed.filter((u) => u.kind === 'events').length).toBeGreaterThan(1);
    expect(events.map((e) => e.seq)).toEqual(finished.events.map((_, i) => i));
    expect(events).toEqual(finished.events);
    expect(finished.events.length).toBeGreaterThan(3000);
    expect(finished.events[0]).toMatchObject({ seq: 0, type: 'message_start', event: 'message_start' });
    expect(finished.events.at(-1)).toMatchObject({ type: 'message_stop', event: 'message_stop' });
    expect(finished.events[5].data).toMatch(/^\{"type":"content_block_delta"/);
    expect(pushed.at(-1)?.kind).toBe('end');
    expect(runs.get(runId)?.events).toHaveLength(finished.events.length);
  });
});

describe('a finished run lists exactly the events its pushes carried, however the stream ended', () => {
  const body = (protocol: 'messages' | 'chat' | 'responses', model: string) =>
    protocol === 'messages'
      ? { model, max_tokens: 300, stream: true, messages: [{ role: 'user', content: 'Tell me about the sea.' }] }
      : protocol === 'chat'
        ? {
            model,
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: 'user', content: 'Tell me about the sea.' }],
          }
        : { model, stream: true, input: 'Tell me about the sea.' };

  async function run(protocol: 'messages' | 'chat' | 'responses', model: string, cancelAfterEvents?: number) {
    const runs = new RunManager(profiles);
    const pushed: RunUpdate[] = [];
    let seen = 0;
    const started = runs.start(
      { profileId: DEMO_PROFILE_ID, protocol, warnings: [], origin: 'composer', body: body(protocol, model) },
      {
        push: (u) => {
          pushed.push(u);
          if (u.kind === 'events') seen += u.events.data.length;
          if (cancelAfterEvents !== undefined && seen >= cancelAfterEvents) runs.cancel(started.runId);
        },
      },
    );
    const finished = await started.done;
    return {
      finished,
      live: pushed.flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : [])),
      reopened: runs.get(started.runId)!,
    };
  }

  it.each([
    ['messages', 'sim-firehose', 'complete'],
    ['chat', 'sim-fault-cut', 'truncated'],
    ['responses', 'sim-fault-midstream-error', 'error-event'],
    ['messages', 'sim-fault-fragmented', 'complete'],
    ['chat', 'sim-fault-malformed', 'complete'],
    ['responses', 'sim-fault-done-noise', 'complete'],
  ] as const)(
    '%s, %s: ends %s and lists the pushed events, payloads and times alike',
    async (protocol, model, verdict) => {
      const { finished, live, reopened } = await run(protocol, model);
      expect(finished.result.verdict).toBe(verdict);
      expect(live.length).toBeGreaterThan(10);
      expect(finished.events).toEqual(live);
      expect(reopened.events).toEqual(live);
      expect(finished.result.warnings.join(' ')).not.toContain('could not be listed');
    },
  );

  it.each([
    ['messages', 'sim-fault-midstream-error'],
    ['chat', 'sim-fault-200-error'],
  ] as const)(
    '%s, %s: an error that came in a 200 carries the request id from the response headers',
    async (protocol, model) => {
      const { finished } = await run(protocol, model);
      expect(finished.result.verdict).toBe('error-event');
      const headers = finished.result.response!.headers;
      const id = headers['request-id'] ?? headers['x-request-id'];
      expect(id).toMatch(/\S{6,}/);
      expect(finished.result.error?.requestId).toBe(id);
    },
  );

  it('a stream stopped mid-way lists the events that arrived before the stop, and no more', async () => {
    const { finished, live, reopened } = await run('messages', 'sim-fault-slow', 3);
    expect(finished.result.verdict).toBe('cancelled');
    expect(live.length).toBeGreaterThanOrEqual(3);
    expect(finished.events).toEqual(live);
    expect(reopened.events).toEqual(live);
  });
});

describe('a JSON body cut short', () => {
  it.each([
    [
      'messages',
      {
        model: 'sim-fault-cut',
        max_tokens: 300,
        stream: false,
        messages: [{ role: 'user', content: 'Tell me about the sea.' }],
      },
    ],
    [
      'chat',
      { model: 'sim-fault-cut', stream: false, messages: [{ role: 'user', content: 'Tell me about the sea.' }] },
    ],
    ['responses', { model: 'sim-fault-cut', stream: false, input: 'Tell me about the sea.' }],
  ] as const)('%s: is truncated, and keeps the reply as far as it came', async (protocol, body) => {
    const runs = new RunManager(profiles);
    const finished = await runs.start(
      { profileId: DEMO_PROFILE_ID, protocol, warnings: [], origin: 'composer', body },
      { push: () => {} },
    ).done;
    expect(finished.result.verdict).toBe('truncated');
    const text = finished.result.transcript.blocks.find((b) => b.kind === 'text');
    expect(text?.kind === 'text' && text.text).toMatch(/^\w+ — this is \*\*Fault: stream cut mid-way\*\*/);
    // What was kept is a prefix of what the body held, cut where the body was.
    expect(finished.result.rawBody).toContain(JSON.stringify(text?.kind === 'text' ? text.text : '').slice(1, -1));
  });
});
