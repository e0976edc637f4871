/**
 * Integration: capability probes against the embedded simulator over real loopback HTTP, driven through the
 * real core's `dispatch` with a temp data dir, exactly as a host drives it. Every probe is an ordinary run
 * (origin "probe") whose id is in the result's evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type {
  CapabilityList,
  CapabilityProgress,
  CapabilityResult,
  GuardReport,
  ProfilesState,
  PushName,
  Pushes,
  Result,
} from '../../../shared/contract';
import type { CapabilityId } from '../../../shared/capabilities';
import type { ProtocolId } from '../../../shared/protocols/types';
import { createCore, type Core, type Receiver } from '../service';
import type { FinishedRun } from '../runs';
import { LayeredVault } from '../vault';
import { DEMO_KEY } from '../simulator';

class Capture implements Receiver {
  readonly progress: CapabilityProgress[] = [];
  send<P extends PushName>(name: P, payload: Pushes[P]): void {
    if (name === 'capabilities:progress') this.progress.push(payload as CapabilityProgress);
  }
  async finished(jobId: string, timeoutMs = 60_000): Promise<CapabilityProgress> {
    const start = Date.now();
    for (;;) {
      const end = this.progress.find((p) => p.jobId === jobId && p.state !== 'running');
      if (end) return end;
      if (Date.now() - start > timeoutMs) throw new Error(`job ${jobId} did not finish`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  results(jobId: string): CapabilityResult[] {
    return this.progress.filter((p) => p.jobId === jobId && p.latest).map((p) => p.latest!);
  }
}

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

let dataDir: string;
let core: Core;
const finishedRuns = new Map<string, FinishedRun>();

async function startCore(): Promise<Core> {
  return createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    onRunFinished: (run) => {
      finishedRuns.set(run.ledger.runId, run);
    },
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-probes-'));
  core = await startCore();
});
afterAll(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function probe(
  models: string[],
  protocols: ProtocolId[],
  capabilities: CapabilityId[],
  extra: Record<string, unknown> = {},
): Promise<{ results: CapabilityResult[]; end: CapabilityProgress; receiver: Capture; ms: number }> {
  const receiver = new Capture();
  const t0 = Date.now();
  const { jobId, total } = value<{ jobId: string; total: number }>(
    await core.dispatch(
      'capabilities:probe',
      { profileId: 'demo', models, protocols, capabilities, ...extra },
      receiver,
    ),
  );
  const end = await receiver.finished(jobId);
  const results = receiver.results(jobId);
  expect(results).toHaveLength(total);
  return { results, end, receiver, ms: Date.now() - t0 };
}

function cell(
  results: CapabilityResult[],
  capability: CapabilityId,
  protocol: ProtocolId = 'messages',
): CapabilityResult {
  const r = results.find((x) => x.capability === capability && x.protocol === protocol);
  if (!r) throw new Error(`no result for ${capability} on ${protocol}`);
  return r;
}

/** Every evidence run is a finished probe run of the right model and protocol. */
function expectEvidenceRuns(r: CapabilityResult): void {
  expect(r.evidence.runIds.length).toBeGreaterThan(0);
  for (const id of r.evidence.runIds) {
    const run = finishedRuns.get(id);
    expect(run, `run ${id}`).toBeDefined();
    expect(run!.origin).toBe('probe');
    expect(run!.ledger.model).toBe(r.model);
  }
}

describe('capability probes against the simulator', () => {
  it('proves tools, round trip, caching, thinking and structured output on claude-sim-sonnet (Messages)', async () => {
    const { results, end } = await probe(
      ['claude-sim-sonnet'],
      ['messages'],
      ['tools', 'tool-roundtrip', 'caching', 'thinking', 'structured-output'],
    );
    expect(end).toMatchObject({ state: 'finished', done: 5, total: 5 });
    for (const r of results) {
      expect(r.outcome, `${r.capability}: ${r.message}`).toBe('proven');
      expect(r.status).toBe(200);
      expect(r.evidence.explanation).not.toBe('');
      expectEvidenceRuns(r);
    }
    expect(cell(results, 'tools').evidence.fields.toolCall).toMatchObject({ name: 'get_weather' });
    expect(cell(results, 'tool-roundtrip').evidence.runIds).toHaveLength(2);
    const caching = cell(results, 'caching');
    expect(caching.evidence.fields.prefixTokens).toBeGreaterThanOrEqual(5000);
    // The ledger of the first caching run carries the cache_control mark and starts the prefix with the nonce.
    const first = finishedRuns.get(caching.evidence.runIds[0])!;
    const sent = JSON.parse(first.ledger.body) as { system: { text: string; cache_control: unknown }[] };
    expect(sent.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(sent.system[0].text).toMatch(/^[A-Z0-9]{6} /);
    expect(cell(results, 'structured-output').evidence.runIds).toHaveLength(3);
  }, 90_000);

  it('proves tools on Chat Completions and Responses too', async () => {
    const { results } = await probe(['claude-sim-sonnet'], ['chat', 'responses'], ['tools']);
    for (const p of ['chat', 'responses'] as const) {
      const r = cell(results, 'tools', p);
      expect(r.outcome, r.message).toBe('proven');
      expectEvidenceRuns(r);
    }
  }, 60_000);

  it('vision: a vision model reads the nonce written in the image on every protocol; a text-only model cannot', async () => {
    // A profile of its own, so these results do not count in the cancel test's tally of the demo profile.
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        { name: 'Vision check', baseUrl: core.demoUrl, key: DEMO_KEY },
        new Capture(),
      ),
    );
    const profileId = saved.profiles.find((p) => p.name === 'Vision check')!.id;
    const { results } = await probe(
      ['claude-sim-sonnet', 'gpt-sim-mini'],
      ['messages', 'chat', 'responses'],
      ['vision'],
      { profileId },
    );
    expect(results).toHaveLength(6);
    for (const r of results) {
      const expected = r.model === 'gpt-sim-mini' ? 'not-supported' : 'proven';
      expect(r.outcome, `${r.model} on ${r.protocol}: ${r.message}`).toBe(expected);
      expect(r.status).toBe(200);
      expect(r.evidence.fields.read).toBe(expected === 'proven');
      // §7.6: a text-only control call shows what the image added to the input tokens. The simulator bills an
      // image whether or not the model can read it, so the text-only model's failure is the model's, not a drop.
      expect(r.evidence.runIds).toHaveLength(2);
      expect(r.evidence.fields.imageInputTokens).toBeGreaterThan(0);
      expect(r.message).toMatch(/The image added \d+ input tokens over a text-only control call/);
      if (expected === 'not-supported') expect(r.evidence.explanation).toMatch(/reached the model/);
      expectEvidenceRuns(r);
    }
  }, 60_000);

  it('vision: a relay that strips the image bills the same as the text-only control, and the verdict says it was dropped', async () => {
    const bodies: { content: unknown[] }[] = [];
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        bodies.push((JSON.parse(text) as { messages: { content: unknown[] }[] }).messages[0]);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `msg_${bodies.length}`,
            type: 'message',
            role: 'assistant',
            model: 'relay-v',
            content: [{ type: 'text', text: 'There is no image.' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 14, output_tokens: 5 },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const saved = value<ProfilesState>(
        await core.dispatch(
          'profiles:save',
          { name: 'Image stripper', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
          new Capture(),
        ),
      );
      const profileId = saved.profiles.find((x) => x.name === 'Image stripper')!.id;
      const receiver = new Capture();
      const { jobId } = value<{ jobId: string }>(
        await core.dispatch(
          'capabilities:probe',
          { profileId, models: ['relay-v'], protocols: ['messages'], capabilities: ['vision'] },
          receiver,
        ),
      );
      await receiver.finished(jobId);
      const r = cell(receiver.results(jobId), 'vision');
      expect(r.outcome, r.message).toBe('not-supported');
      expect(r.evidence.fields).toMatchObject({
        read: false,
        inputTokens: 14,
        controlInputTokens: 14,
        imageInputTokens: 0,
      });
      expect(r.message).toMatch(
        /added no input tokens over a text-only control call \(14 against 14\): the gateway most likely dropped it/,
      );
      // The first call carried the image, the control only the prompt.
      expect(bodies.map((b) => b.content.map((part) => (part as { type: string }).type))).toEqual([
        ['image', 'text'],
        ['text'],
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 60_000);

  it('a model that ignores tools yet answers 200 is "not-supported", with its text as evidence', async () => {
    const { results } = await probe(['sim-no-tools'], ['messages', 'chat', 'responses'], ['tools']);
    for (const r of results) {
      expect(r.outcome, `${r.protocol}: ${r.message}`).toBe('not-supported');
      expect(r.status).toBe(200);
      expect(r.evidence.text?.length).toBeGreaterThan(0);
      expect(r.evidence.fields.toolCalls).toBe(0);
      expectEvidenceRuns(r);
    }
  }, 60_000);

  it('a model that never reports cache fields is caching "not-supported" (not reported)', async () => {
    const { results } = await probe(['sim-no-cache'], ['messages'], ['caching']);
    const r = cell(results, 'caching');
    expect(r.outcome, r.message).toBe('not-supported');
    expect(r.message).toMatch(/not reported/);
    expect(r.evidence.runIds).toHaveLength(2);
  }, 60_000);

  it('on Messages a cache read that no call reported writing is inconclusive, not proven; with the write it is proven', async () => {
    // A relay that passes cache reads through but zeroes cache_creation_input_tokens, and one that reports both.
    for (const writes of [false, true]) {
      let calls = 0;
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const first = calls++ === 0;
          const usage = {
            input_tokens: 12,
            output_tokens: 1,
            cache_creation_input_tokens: first && writes ? 5200 : 0,
            cache_read_input_tokens: first ? 0 : 5200,
          };
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: `msg_${calls}`,
              type: 'message',
              role: 'assistant',
              model: 'relay-m',
              content: [{ type: 'text', text: 'OK' }],
              stop_reason: 'end_turn',
              usage,
            }),
          );
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      try {
        const name = `Cache relay ${writes}`;
        const saved = value<ProfilesState>(
          await core.dispatch(
            'profiles:save',
            { name, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
            new Capture(),
          ),
        );
        const profileId = saved.profiles.find((x) => x.name === name)!.id;
        const receiver = new Capture();
        const { jobId } = value<{ jobId: string }>(
          await core.dispatch(
            'capabilities:probe',
            { profileId, models: ['relay-m'], protocols: ['messages'], capabilities: ['caching'] },
            receiver,
          ),
        );
        await receiver.finished(jobId);
        const r = cell(receiver.results(jobId), 'caching');
        expect(calls).toBe(2);
        if (writes) {
          expect(r.outcome, r.message).toBe('proven');
          expect(r.message).toMatch(/read 5200 tokens from the cache \(an earlier call wrote 5200\)/);
        } else {
          expect(r.outcome, r.message).toBe('inconclusive');
          expect(r.message).toMatch(/no earlier call reported writing them \(usage\.cache_creation_input_tokens 0\)/);
        }
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    }
  }, 60_000);

  it('a chat-only model gives "error" with status 404 on Responses', async () => {
    const { results } = await probe(['sim-chat-only'], ['chat', 'responses'], ['tools']);
    const responses = cell(results, 'tools', 'responses');
    expect(responses.outcome).toBe('error');
    expect(responses.status).toBe(404);
    expect(responses.message).toMatch(/^HTTP 404/);
    expect(cell(results, 'tools', 'chat').outcome).not.toBe('error');
  }, 60_000);

  it('a 429 model is inconclusive, honouring retry-after: no early retry, and later jobs wait for it', async () => {
    // The simulator asks for 30 s; a short cap keeps the test fast: the probe must give up rather than retry early.
    const { results, ms } = await probe(['sim-fault-429'], ['chat'], ['tools'], {
      rateLimit: { maxAttempts: 3, maxWaitSeconds: 1 },
    });
    const r = cell(results, 'tools', 'chat');
    expect(r.outcome).toBe('inconclusive');
    expect(r.status).toBe(429);
    expect(r.attempts).toBe(1);
    expect(r.evidence.runIds).toHaveLength(1);
    const first = finishedRuns.get(r.evidence.runIds[0])!;
    expect(first.response?.headers['retry-after']).toBe('30');
    expect(r.message).toMatch(/the gateway asked to wait 30 s, longer than the 1 s allowed/);
    const retryAt = Date.parse(r.retryAfter!);
    expect(retryAt - Date.parse(r.at)).toBeGreaterThan(28_000);
    expect(ms).toBeLessThan(5_000);

    // A new job for the same model does not send before the gateway's time: it waits, says until when, and can be cancelled.
    const before = [...finishedRuns.values()].filter((x) => x.ledger.model === 'sim-fault-429').length;
    const receiver = new Capture();
    const { jobId } = value<{ jobId: string }>(
      await core.dispatch(
        'capabilities:probe',
        { profileId: 'demo', models: ['sim-fault-429'], protocols: ['messages'], capabilities: ['tools'] },
        receiver,
      ),
    );
    for (let i = 0; i < 40 && !receiver.progress.some((p) => p.pausedUntil); i++)
      await new Promise((res) => setTimeout(res, 25));
    const paused = receiver.progress.find((p) => p.pausedUntil)!;
    expect(Math.abs(Date.parse(paused.pausedUntil!) - retryAt)).toBeLessThan(2_000);
    await core.dispatch('capabilities:cancel', { jobId }, receiver);
    expect((await receiver.finished(jobId)).state).toBe('cancelled');
    expect([...finishedRuns.values()].filter((x) => x.ledger.model === 'sim-fault-429').length).toBe(before);
  }, 60_000);

  it('lists stored results with their age, and they survive a restart', async () => {
    const list = value<CapabilityList>(await core.dispatch('capabilities:list', { profileId: 'demo' }, new Capture()));
    expect(list.results.length).toBeGreaterThanOrEqual(10);
    for (const r of list.results) expect(r.ageMs).toBeGreaterThanOrEqual(0);
    expect(existsSync(path.join(dataDir, 'capabilities.json'))).toBe(true);

    const second = await startCore();
    try {
      const again = value<CapabilityList>(
        await second.dispatch('capabilities:list', { profileId: 'demo' }, new Capture()),
      );
      expect(again.results.map((r) => `${r.model}/${r.protocol}/${r.capability}/${r.outcome}`).sort()).toEqual(
        list.results.map((r) => `${r.model}/${r.protocol}/${r.capability}/${r.outcome}`).sort(),
      );
    } finally {
      await second.close();
    }
  });

  it('the guard warns when a tool-using request goes where tools are not proven, and lists the unknown', async () => {
    const body = {
      model: 'sim-no-tools',
      max_output_tokens: 64,
      input: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      reasoning: { effort: 'high' },
    };
    const report = value<GuardReport>(
      await core.dispatch(
        'capabilities:guard',
        { profileId: 'demo', model: 'sim-no-tools', protocol: 'responses', body },
        new Capture(),
      ),
    );
    expect(report.items.find((i) => i.capability === 'tools')).toMatchObject({ state: 'not-supported', status: 200 });
    expect(report.items.find((i) => i.capability === 'tools')?.runId).toMatch(/^run_/);
    expect(report.unknown).toEqual(['thinking']);
    expect(report.warnings.some((w) => /^Tool calls: .*not supported by sim-no-tools on Responses/.test(w))).toBe(true);
    expect(report.warnings.some((w) => /Not proven for sim-no-tools on Responses: thinking/.test(w))).toBe(true);

    // Where tools are proven, no tools warning; a never-probed target is all unknown.
    const proven = value<GuardReport>(
      await core.dispatch(
        'capabilities:guard',
        { profileId: 'demo', model: 'claude-sim-sonnet', protocol: 'responses', body: { tools: body.tools } },
        new Capture(),
      ),
    );
    expect(proven.warnings).toEqual([]);
    const never = value<GuardReport>(
      await core.dispatch(
        'capabilities:guard',
        { profileId: 'demo', model: 'gpt-sim-mini', protocol: 'chat', body: { tools: body.tools } },
        new Capture(),
      ),
    );
    expect(never.items[0].state).toBe('unknown');
    expect(never.unknown).toEqual(['tools']);

    // The warnings fit the run ledger as they are.
    const started = await core.dispatch(
      'runs:start',
      { profileId: 'demo', protocol: 'responses', body, warnings: report.warnings },
      new Capture(),
    );
    expect(started.ok).toBe(true);
  });

  it('cancels a job: the final push says cancelled and unfinished cells are not stored', async () => {
    const receiver = new Capture();
    const { jobId, total } = value<{ jobId: string; total: number }>(
      await core.dispatch(
        'capabilities:probe',
        { profileId: 'demo', models: ['gpt-sim-4o', 'gpt-sim-mini'], protocols: ['messages', 'chat', 'responses'] },
        receiver,
      ),
    );
    expect(total).toBe(2 * (3 * 7 + 2));
    const listed = value<CapabilityList>(await core.dispatch('capabilities:list', { profileId: 'demo' }, receiver));
    expect(listed.jobs.find((j) => j.jobId === jobId)).toMatchObject({ state: 'running', total });
    expect(
      value<{ cancelled: boolean }>(await core.dispatch('capabilities:cancel', { jobId }, receiver)).cancelled,
    ).toBe(true);
    const end = await receiver.finished(jobId);
    expect(end.state).toBe('cancelled');
    expect(end.done).toBeLessThan(total);
    const after = value<CapabilityList>(await core.dispatch('capabilities:list', { profileId: 'demo' }, receiver));
    expect(after.results.filter((r) => r.model === 'gpt-sim-4o' || r.model === 'gpt-sim-mini').length).toBe(end.done);
    expect(after.jobs).toEqual([]);
  });

  it('rejects bad input and unknown profiles', async () => {
    const r = new Capture();
    const none = await core.dispatch(
      'capabilities:probe',
      { profileId: 'demo', models: ['m'], protocols: ['chat'], capabilities: ['background'] },
      r,
    );
    expect(none.ok).toBe(false);
    const bad = await core.dispatch(
      'capabilities:probe',
      { profileId: 'demo', models: [], capabilities: ['teleport'] },
      r,
    );
    expect(bad.ok ? undefined : bad.error.code).toBe('invalid_input');
    const missing = await core.dispatch('capabilities:list', { profileId: 'nope' }, r);
    expect(missing.ok ? undefined : missing.error.code).toBe('not_found');
  });
});
