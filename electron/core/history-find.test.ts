/**
 * History that finds things, through the real core and the simulator on loopback, over real files in a temp data
 * dir: every run carries its source, a check's runs share one group row, search reads the request, names and
 * pins persist, and an export is valid HAR 1.2 with no secret in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv from 'ajv';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import type {
  AgentResult,
  CapabilityList,
  HistorySummary,
  ProfilesState,
  RecordedRun,
  Result,
} from '../../shared/contract';
import { createCore, type Receiver } from './service';
import { encodeRun, HistoryStore } from './history-store';
import { LayeredVault } from './vault';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './simulator';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-hfind-');
/** The HAR 1.2 JSON schemas, one per object (har-schema ships no types). */
const harSchema = createRequire(import.meta.url)('har-schema') as Record<string, object>;
const KEY = 'sk-history-export-key-0123456789';
const HEADER_SECRET = 'relay-token-abcdef0123456789';
const rx: Receiver = { send() {} };

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
};

let sim: RunningSimulator;
let core: Awaited<ReturnType<typeof createCore>>;
let dataDir: string;
let profileId: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, host: '127.0.0.1', keys: { [KEY]: ['claude-sim-sonnet', 'gpt-sim-mini'] } });
  dataDir = temp();
  core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    demoGateway: { baseUrl: sim.url, key: DEMO_KEY },
  });
  const saved = value<ProfilesState>(
    await core.dispatch(
      'profiles:save',
      { name: 'Relay', baseUrl: sim.url, key: KEY, extraHeaders: { 'x-relay-token': HEADER_SECRET } },
      rx,
    ),
  );
  profileId = saved.profiles.find((p) => p.name === 'Relay')!.id;
});
afterAll(async () => {
  await core.close();
  await sim.close();
});

const list = async (filter: Record<string, unknown> = {}) =>
  value<{ runs: HistorySummary[]; total: number }>(await core.dispatch('history:list', { limit: 1000, ...filter }, rx));

async function send(body: Record<string, unknown>, origin?: string): Promise<string> {
  const { runId } = value<{ runId: string }>(
    await core.dispatch('runs:start', { profileId, protocol: 'messages', body, ...(origin ? { origin } : {}) }, rx),
  );
  for (let waited = 0; !(await list()).runs.some((r) => r.runId === runId); waited += 20) {
    if (waited > 15_000) throw new Error(`run ${runId} did not reach history`);
    await new Promise((res) => setTimeout(res, 20));
  }
  return runId;
}

async function probe(models: string[], capabilities: string[]): Promise<void> {
  const input = { profileId, models, protocols: ['messages'], capabilities };
  const { jobId } = value<{ jobId: string }>(await core.dispatch('capabilities:probe', input, rx));
  for (let waited = 0; ; waited += 20) {
    const jobs = value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, rx)).jobs;
    if (!jobs.some((j) => j.jobId === jobId)) break;
    if (waited > 30_000) throw new Error(`probe job ${jobId} did not finish`);
    await new Promise((res) => setTimeout(res, 20));
  }
  await core.dispatch('history:list', { limit: 1 }, rx);
}

const ids = (runs: HistorySummary[]) => runs.map((r) => r.runId);

describe('History sources, groups and search, through the core', () => {
  let mine: string;
  let compared: string;

  beforeAll(async () => {
    mine = await send({
      model: 'claude-sim-sonnet',
      max_tokens: 64,
      stream: true,
      system: 'You answer as a LIGHTHOUSEKEEPER would.',
      messages: [
        { role: 'user', content: 'Where is the ZEBRAFISH weather station?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'station' } }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'It stands on CORMORANT rock.' }],
        },
        { role: 'assistant', content: 'It is on a rock.' },
        { role: 'user', content: 'Tell me more.' },
      ],
    });
    compared = await send(
      { model: 'gpt-sim-mini', max_tokens: 32, messages: [{ role: 'user', content: 'compare me' }] },
      'compare',
    );
    await probe(['claude-sim-sonnet'], ['streaming', 'tools']);
  });

  it('each run carries its source: the user’s own, a compare column, a Capabilities check', async () => {
    const all = await list();
    expect(all.total).toBeGreaterThan(3);
    expect(ids((await list({ source: 'mine' })).runs)).toEqual([mine]);
    expect(ids((await list({ source: 'compare' })).runs)).toEqual([compared]);
    const probes = (await list({ source: 'capabilities' })).runs;
    expect(probes.length).toBe(all.total - 2);
    expect(new Set(probes.map((r) => r.check?.label))).toEqual(new Set(['Capabilities · claude-sim-sonnet']));
    expect((await list({ source: 'all' })).total).toBe(all.total);
    const recorded = value<RecordedRun>(await core.dispatch('history:get', { runId: probes[0].runId }, rx));
    expect(recorded.source).toBe('capabilities');
    expect(recorded.check?.unit).toBe('probe');
  });

  it('a check’s probes are one row that expands to its runs', async () => {
    const probes = (await list({ source: 'capabilities' })).runs;
    const grouped = (await list({ source: 'capabilities', grouped: true })).runs;
    expect(grouped).toHaveLength(1);
    expect(grouped[0].groupCount).toBe(probes.length);
    const open = await list({ source: 'capabilities', grouped: true, expanded: [grouped[0].check!.id] });
    expect(open.runs[0].groupCount).toBe(probes.length);
    expect(ids(open.runs.slice(1))).toEqual(ids(probes));
    // Mixed with the user's runs, the check stays one row among them.
    expect((await list({ grouped: true })).total).toBe(3);
  });

  it('search reads the request: the system text, a prompt word and a tool result find the run', async () => {
    const run = value<RecordedRun>(await core.dispatch('history:get', { runId: mine }, rx));
    const output = JSON.stringify(run.result.transcript).toLowerCase();
    for (const word of ['zebrafish', 'lighthousekeeper', 'cormorant']) {
      expect(output).not.toContain(word);
      expect(ids((await list({ source: 'all', text: word })).runs)).toEqual([mine]);
    }
    expect(ids((await list({ text: 'ZebraFish cormorant' })).runs)).toEqual([mine]);
    expect((await list({ text: 'zebrafish nowhere-else' })).total).toBe(0);
  });

  it('Export HAR: valid HAR 1.2 with the request, the answer and its timings, and no key or secret header', async () => {
    const out = value<{ fileName: string; text: string; count: number }>(
      await core.dispatch('history:export', { runIds: [mine, compared], format: 'har' }, rx),
    );
    expect(out.count).toBe(2);
    expect(out.fileName).toMatch(/\.har$/);
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addMetaSchema(draft6);
    for (const [name, schema] of Object.entries(harSchema)) if (name !== 'har') ajv.addSchema(schema);
    const har = JSON.parse(out.text) as {
      log: {
        entries: {
          request: Record<string, unknown>;
          response: Record<string, unknown>;
          timings: Record<string, number>;
        }[];
      };
    };
    const valid = ajv.validate(harSchema.har, har);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    const [first, second] = har.log.entries;
    expect(first.request.method).toBe('POST');
    expect(first.request.url).toBe(`${sim.url}/v1/messages`);
    expect((first.request.postData as { text: string }).text).toContain('ZEBRAFISH');
    expect(first.response.status).toBe(200);
    const run = value<RecordedRun>(await core.dispatch('history:get', { runId: mine }, rx));
    expect(first.timings.wait).toBe(run.response!.ttfbMs);
    expect(first.timings.wait + first.timings.receive).toBeCloseTo(run.result.metrics.totalMs, 5);
    expect((first.response.content as { text: string }).text).toContain('event: message_stop');
    expect((second.response.content as { mimeType: string }).mimeType).toContain('application/json');
    const headers = first.request.headers as { name: string; value: string }[];
    expect(headers.find((h) => h.name === 'x-api-key')?.value).toMatch(/^\[redacted/);
    expect(headers.find((h) => h.name === 'x-relay-token')?.value).toMatch(/^\[redacted/);
    for (const secret of [KEY, HEADER_SECRET, KEY.slice(-12), HEADER_SECRET.slice(-12)])
      expect(out.text).not.toContain(secret);

    const json = value<{ text: string }>(await core.dispatch('history:export', { runIds: [mine], format: 'json' }, rx));
    expect(JSON.parse(json.text).runs[0].ledger.runId).toBe(mine);
    for (const secret of [KEY, HEADER_SECRET]) expect(json.text).not.toContain(secret);
  });

  it('an agent check’s steps are one Agents row', async () => {
    value<AgentResult>(
      await core.dispatch('agents:check', { profileId, agent: 'claude-code', model: 'claude-sim-sonnet' }, rx),
    );
    await core.dispatch('history:list', { limit: 1 }, rx);
    const rows = (await list({ source: 'agents', grouped: true })).runs;
    expect(rows).toHaveLength(1);
    expect(rows[0].check?.label).toBe('Agents · Claude Code · claude-sim-sonnet');
    expect(rows[0].groupCount).toBeGreaterThan(2);
    expect((await list({ source: 'mine' })).total).toBe(1);
  });

  it('rename and pin: names are searchable, pinned runs come first and outlive Clear and a restart', async () => {
    const oldest = (await list({ source: 'capabilities' })).runs.at(-1)!.runId;
    value(await core.dispatch('history:rename', { runId: compared, name: 'Baseline PELICAN' }, rx));
    value(await core.dispatch('history:pin', { runId: oldest, pinned: true }, rx));
    expect(ids((await list({ text: 'pelican' })).runs)).toEqual([compared]);
    expect((await list()).runs[0].runId).toBe(oldest);
    value(await core.dispatch('history:pin', { runId: compared, pinned: true }, rx));
    await core.dispatch('history:clear', {}, rx);
    expect(new Set(ids((await list()).runs))).toEqual(new Set([oldest, compared]));
    const index = readFileSync(path.join(dataDir, 'history', 'index.json'), 'utf8');
    expect(index).toContain('Baseline PELICAN');

    await core.close();
    core = await createCore({
      dataDir,
      host: 'web',
      version: 'test',
      vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
      demoGateway: { baseUrl: sim.url, key: DEMO_KEY },
    });
    const after = (await list()).runs;
    expect(new Set(ids(after))).toEqual(new Set([oldest, compared]));
    expect(after.find((r) => r.runId === compared)).toMatchObject({ name: 'Baseline PELICAN', pinned: true });
    expect(ids((await list({ text: 'pelican' })).runs)).toEqual([compared]);
    value(await core.dispatch('history:rename', { runId: compared, name: '' }, rx));
    expect((await list({ text: 'pelican' })).total).toBe(0);
  });
});

function recorded(runId: string, o: Partial<RecordedRun> & { prompt?: string; at?: number } = {}): RecordedRun {
  const startedAt = new Date(Date.UTC(2026, 0, 1) + (o.at ?? 0) * 1000).toISOString();
  return {
    ledger: {
      runId,
      protocol: 'messages',
      profileId: 'p',
      profileName: 'Demo',
      model: 'm',
      stream: false,
      method: 'POST',
      url: 'http://gw/v1/messages',
      headers: {},
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: o.prompt ?? 'hello' }] }),
      bodyBytes: 10,
      startedAt,
      warnings: [],
      ...o.ledger,
    },
    events: [],
    origin: o.origin ?? 'composer',
    ...(o.source ? { source: o.source } : {}),
    ...(o.check ? { check: o.check } : {}),
    result: {
      verdict: 'complete',
      reason: 'ok',
      metrics: { status: 200, totalMs: 5, events: 0, bytes: 0, usage: {} },
      transcript: { blocks: [{ kind: 'text', text: 'an answer' }], usage: {} },
      warnings: [],
      endedAt: startedAt,
    },
  };
}

describe('History over older files and at its limits', () => {
  it('runs recorded before sources are inferred: probes, agent steps by their headers, compare, sessions, the user’s', async () => {
    const dir = temp();
    mkdirSync(path.join(dir, 'history'), { recursive: true });
    const old = [
      recorded('run_a', { origin: 'composer', at: 1 }),
      recorded('run_b', { origin: 'replay', at: 2 }),
      recorded('run_c', { origin: 'compare', at: 3 }),
      recorded('run_d', { origin: 'probe', at: 4 }),
      recorded('run_e', {
        origin: 'probe',
        at: 5,
        ledger: { headers: { 'user-agent': 'claude-cli/2.0 (external)' } } as never,
      }),
      recorded('run_f', { origin: 'agent', at: 6, ledger: { sessionId: 'sess_1' } as never }),
      recorded('run_g', { origin: 'agent', at: 7, ledger: { sessionId: 'sess_1' } as never }),
    ];
    // Written as an older version wrote them: no source, no check, and no index (rebuilt from the files).
    for (const r of old) writeFileSync(path.join(dir, 'history', `${r.ledger.runId}.jsonl`), await encodeRun(r));
    const h = new HistoryStore(dir);
    await h.load();
    const of = async (source: string) =>
      (await h.list({ source: source as never, limit: 100, offset: 0 })).runs.map((r) => r.runId);
    expect(await of('mine')).toEqual(['run_b', 'run_a']);
    expect(await of('compare')).toEqual(['run_c']);
    expect(await of('capabilities')).toEqual(['run_d']);
    expect(await of('agents')).toEqual(['run_g', 'run_f', 'run_e']);
    const grouped = await h.list({ source: 'agents', grouped: true, limit: 100, offset: 0 });
    expect(grouped.runs.map((r) => [r.runId, r.groupCount])).toEqual([
      ['run_g', 2],
      ['run_e', undefined],
    ]);

    // An index written before sources: each entry's origin is read for it.
    const indexFile = path.join(dir, 'history', 'index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { runs: Record<string, unknown>[] };
    for (const r of index.runs) delete r.source;
    writeFileSync(indexFile, JSON.stringify(index));
    const again = new HistoryStore(dir);
    await again.load();
    expect((await again.list({ source: 'mine', limit: 100, offset: 0 })).total).toBe(2);
    expect((await again.list({ source: 'compare', limit: 100, offset: 0 })).total).toBe(1);
  });

  it('search finds a prompt word from the search file alone after a restart, and builds that file for older history', async () => {
    const dir = temp();
    const h = new HistoryStore(dir);
    await h.load();
    for (let i = 0; i < 30; i++)
      await h.add(recorded(`run_${i}`, { prompt: i === 7 ? 'about OSPREY nests' : 'hay', at: i }));
    const found = async (s: HistoryStore) =>
      (await s.list({ text: 'osprey', limit: 10, offset: 0 })).runs.map((r) => r.runId);
    expect(await found(h)).toEqual(['run_7']);

    // A restart: the first search reads search.jsonl, not the run files (gone here, so reading them would miss).
    const file = path.join(dir, 'history', 'run_7.jsonl');
    const saved = readFileSync(file);
    rmSync(file);
    const restarted = new HistoryStore(dir);
    await restarted.load();
    expect(await found(restarted)).toEqual(['run_7']);

    // History from before the search file: the first search reads the runs' headers once and writes the file.
    writeFileSync(file, saved);
    rmSync(path.join(dir, 'history', 'search.jsonl'));
    const older = new HistoryStore(dir);
    await older.load();
    expect(await found(older)).toEqual(['run_7']);
    expect(readFileSync(path.join(dir, 'history', 'search.jsonl'), 'utf8')).toContain('osprey');
  });

  it('trimming to the run cap keeps pinned runs however old', async () => {
    const dir = temp();
    const h = new HistoryStore(dir);
    await h.load();
    await h.add(recorded('run_old', { at: 0 }));
    await h.pin('run_old', true);
    await h.updateSettings({ maxRuns: 3 });
    for (let i = 1; i <= 5; i++) await h.add(recorded(`run_${i}`, { at: i }));
    const kept = (await h.list({ limit: 100, offset: 0 })).runs.map((r) => r.runId);
    expect(kept).toEqual(['run_old', 'run_5', 'run_4']);
  });
});

describe('the search file', () => {
  it(
    'is written again without deleted runs once they outnumber the live ones, and search still finds the rest',
    { timeout: 60_000 },
    async () => {
      const dir = temp();
      const h = new HistoryStore(dir);
      await h.load();
      await h.updateSettings({ maxRuns: 5 });
      for (let i = 0; i < 210; i++) await h.add(recorded(`run_${i}`, { prompt: `word${i}`, at: i }));
      const lines = readFileSync(path.join(dir, 'history', 'search.jsonl'), 'utf8')
        .trim()
        .split('\n');
      expect(lines.length).toBeLessThan(20);
      const restarted = new HistoryStore(dir);
      await restarted.load();
      expect((await restarted.list({ text: 'word209', limit: 10, offset: 0 })).runs.map((r) => r.runId)).toEqual([
        'run_209',
      ]);
    },
  );
});
