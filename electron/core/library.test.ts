/**
 * Presets and history through the real core with a temp data dir: migrations, import conflicts, pruning,
 * corrupt files, and every finished run recorded by the core.
 */
import { describe, expect, it } from 'vitest';
import { promises as fs, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HistorySummary, Preset, RecordedRun, Result, RunUpdate } from '../../shared/contract';
import { createCore, type Receiver } from './service';
import { encodeRun, HistoryStore } from './history-store';
import { migrate } from './preset-store';
import { LayeredVault } from './vault';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-lib-');

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
};
const rx: Receiver = { send() {} };
const KEY = 'sk-preset-test-key-987654321';

async function core(dataDir = temp()) {
  return createCore({
    dataDir,
    host: 'web',
    version: 't',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
  });
}

describe('presets', () => {
  it('migrates a version 1 document', () => {
    const m = migrate({
      format: 'gateway-playground-presets',
      version: 1,
      presets: [
        {
          id: 'a',
          name: 'Old',
          protocol: 'chat',
          request: { model: 'm', stream: true, extra: 1 },
          created: '2025-01-01T00:00:00Z',
        },
      ],
    });
    expect(m).toEqual({
      presets: [
        {
          id: 'a',
          name: 'Old',
          notes: undefined,
          tags: [],
          protocol: 'chat',
          model: 'm',
          body: { model: 'm', stream: true, extra: 1 },
          stream: true,
          createdAt: '2025-01-01T00:00:00Z',
          updatedAt: '2025-01-01T00:00:00Z',
        },
      ],
    });
    expect(migrate({ format: 'other' })).toMatchObject({
      error: expect.stringMatching(/not a Gateway Playground presets file/),
    });
    const postman = {
      info: {
        _postman_id: '5f0c',
        name: 'My API',
        schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
      },
      item: [{ name: 'chat', request: { method: 'POST', url: 'https://gw.example/v1/chat/completions' } }],
    };
    const said = (doc: unknown) => (migrate(doc) as { error: string }).error;
    expect(said(postman)).toMatch(
      /^This looks like a Postman collection \(v2\.1\.0\); Presets imports Gateway Playground preset files \(.*Export all.*\)\. .*Import from curl/,
    );
    expect(said(postman)).not.toContain('null');
    expect(
      said({ ...postman, info: { ...postman.info, schema: 'https://schema.getpostman.com/json/collection/v2.0.0/' } }),
    ).toMatch(/^This looks like a Postman collection \(v2\.0\.0\);/);
    expect(said({ name: 'My API', version: '1', items: [], brunoConfig: { version: '1' } })).toMatch(
      /^This looks like a Bruno collection; Presets imports Gateway Playground preset files/,
    );
    expect(said({ presets: [] })).toMatch(/no "format" field\)\. Presets imports Gateway Playground preset files/);
    expect(said([1, 2])).toMatch(/^The file is not a JSON object\. Presets imports/);
    expect(migrate({ format: 'gateway-playground-presets', version: 9 })).toMatchObject({
      error: expect.stringMatching(/Unknown presets file version 9/),
    });
  });

  it('saves, duplicates, renames, deletes with undo, and never keeps a key — the export proves it', async () => {
    const c = await core();
    try {
      const saved = value<{ profiles: { id: string; name: string }[] }>(
        await c.dispatch('profiles:save', { name: 'P', baseUrl: 'http://127.0.0.1:1', key: KEY }, rx),
      );
      expect(saved.profiles.some((p) => p.name === 'P')).toBe(true);
      const p = value<Preset>(
        await c.dispatch(
          'presets:save',
          {
            name: 'Weather',
            protocol: 'messages',
            body: {
              model: 'claude-sim-sonnet',
              max_tokens: 10,
              messages: [],
              vendor_flag: true,
              note: `pasted ${KEY} by mistake`,
            },
            stream: true,
            tags: ['demo'],
          },
          rx,
        ),
      );
      expect(p.body.vendor_flag).toBe(true);
      const dup = value<Preset>(await c.dispatch('presets:duplicate', { id: p.id }, rx));
      expect(dup.name).toBe('Weather (copy)');
      value(await c.dispatch('presets:rename', { id: dup.id, name: 'Weather 2' }, rx));
      const { deleted } = value<{ deleted: Preset }>(await c.dispatch('presets:delete', { id: p.id }, rx));
      expect(value<{ presets: Preset[] }>(await c.dispatch('presets:list', {}, rx)).presets.map((x) => x.name)).toEqual(
        ['Weather 2'],
      );
      value(await c.dispatch('presets:restore', { preset: deleted }, rx));
      const exported = value<{ text: string; count: number }>(await c.dispatch('presets:export', {}, rx));
      expect(exported.count).toBe(2);
      expect(exported.text).not.toContain(KEY);
      expect(exported.text).toContain('<API_KEY>');
      expect(readFileSync(path.join(temp.made.at(-1)!, 'presets.json'), 'utf8')).not.toContain(KEY);
    } finally {
      await c.close();
    }
  });

  it('rename and save refuse a name another preset has (ignoring case and spaces), naming it in a field error', async () => {
    const c = await core();
    try {
      const weather = value<Preset>(
        await c.dispatch('presets:save', { name: 'Weather', protocol: 'chat', body: { model: 'a' } }, rx),
      );
      const pirate = value<Preset>(
        await c.dispatch('presets:save', { name: 'Pirate', protocol: 'chat', body: { model: 'b' } }, rx),
      );
      const refused = {
        ok: false,
        error: {
          code: 'name_taken',
          message: 'A preset named "Weather" already exists.',
          fields: { name: 'A preset named "Weather" already exists.' },
        },
      };
      expect(await c.dispatch('presets:rename', { id: pirate.id, name: '  wEATHER ' }, rx)).toEqual(refused);
      expect(await c.dispatch('presets:save', { name: 'weather', protocol: 'chat', body: { model: 'c' } }, rx)).toEqual(
        refused,
      );
      expect(
        await c.dispatch(
          'presets:save',
          { id: pirate.id, name: 'Weather', protocol: 'chat', body: { model: 'b' } },
          rx,
        ),
      ).toEqual(refused);
      const names = async () =>
        value<{ presets: Preset[] }>(await c.dispatch('presets:list', {}, rx)).presets.map((p) => p.name);
      expect(await names()).toEqual(['Weather', 'Pirate']);
      // Its own name, in another case or saved again, is not a clash.
      expect(value<Preset>(await c.dispatch('presets:rename', { id: weather.id, name: 'WEATHER' }, rx)).name).toBe(
        'WEATHER',
      );
      value(
        await c.dispatch(
          'presets:save',
          { id: pirate.id, name: 'Pirate', protocol: 'chat', body: { model: 'b2' } },
          rx,
        ),
      );
      expect(await names()).toEqual(['WEATHER', 'Pirate']);
      // Replace, chosen after the clash, saves over the preset of that name: same id and creation time, new body.
      const replaced = value<Preset>(
        await c.dispatch(
          'presets:save',
          { name: 'weather', protocol: 'chat', body: { model: 'w2' }, replace: true },
          rx,
        ),
      );
      expect(replaced).toMatchObject({
        id: weather.id,
        createdAt: weather.createdAt,
        name: 'weather',
        body: { model: 'w2' },
      });
      expect(await names()).toEqual(['weather', 'Pirate']);
      // With no preset of that name, replace is an ordinary new preset.
      expect(
        value<Preset>(
          await c.dispatch(
            'presets:save',
            { name: 'Fresh', protocol: 'chat', body: { model: 'f' }, replace: true },
            rx,
          ),
        ).id,
      ).not.toBe(weather.id);
      value(
        await c.dispatch(
          'presets:delete',
          {
            id: value<{ presets: Preset[] }>(await c.dispatch('presets:list', {}, rx)).presets.find(
              (p) => p.name === 'Fresh',
            )!.id,
          },
          rx,
        ),
      );
      expect(await names()).toEqual(['weather', 'Pirate']);
      // A deleted preset whose name was taken meanwhile comes back beside it, not as its twin.
      const { deleted } = value<{ deleted: Preset }>(await c.dispatch('presets:delete', { id: pirate.id }, rx));
      value(await c.dispatch('presets:rename', { id: weather.id, name: 'pirate' }, rx));
      expect(value<Preset>(await c.dispatch('presets:restore', { preset: deleted }, rx))).toMatchObject({
        id: pirate.id,
        name: 'Pirate (2)',
      });
      expect(await names()).toEqual(['pirate', 'Pirate (2)']);
    } finally {
      await c.close();
    }
  });

  it('import: a name clash asks; keep both or replace as chosen; a malformed file changes nothing', async () => {
    const c = await core();
    try {
      value(await c.dispatch('presets:save', { name: 'Same', protocol: 'chat', body: { model: 'a' } }, rx));
      const doc = JSON.stringify({
        format: 'gateway-playground-presets',
        version: 2,
        presets: [
          {
            id: 'x',
            name: 'Same',
            tags: [],
            protocol: 'chat',
            body: { model: 'b' },
            stream: false,
            createdAt: 't',
            updatedAt: 't',
          },
        ],
      });
      expect(value(await c.dispatch('presets:import', { text: doc }, rx))).toEqual({
        imported: 0,
        replaced: 0,
        conflicts: ['Same'],
      });
      expect(value<{ presets: Preset[] }>(await c.dispatch('presets:list', {}, rx)).presets).toHaveLength(1);
      value(await c.dispatch('presets:import', { text: doc, onConflict: 'keep-both' }, rx));
      expect(value<{ presets: Preset[] }>(await c.dispatch('presets:list', {}, rx)).presets.map((p) => p.name)).toEqual(
        ['Same', 'Same (2)'],
      );
      value(await c.dispatch('presets:import', { text: doc, onConflict: 'replace' }, rx));
      const list = value<{ presets: Preset[] }>(await c.dispatch('presets:list', {}, rx)).presets;
      expect(list.find((p) => p.name === 'Same')?.body).toEqual({ model: 'b' });
      const bad = await c.dispatch(
        'presets:import',
        { text: '{"format":"gateway-playground-presets","version":2,"presets":[{"name":1}]}', onConflict: 'replace' },
        rx,
      );
      expect(bad).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Nothing was imported/) } });
      expect(value<{ presets: Preset[] }>(await c.dispatch('presets:list', {}, rx)).presets).toHaveLength(2);
    } finally {
      await c.close();
    }
  });
});

describe('history', () => {
  it('records every finished run in the core; the list, the events in order, and a restart keep it', async () => {
    const dataDir = temp();
    let c = await core(dataDir);
    const updates: RunUpdate[] = [];
    const r: Receiver = { send: (_n, p) => updates.push(...(p as RunUpdate[])) };
    const { runId } = value<{ runId: string }>(
      await c.dispatch(
        'runs:start',
        {
          profileId: 'demo',
          protocol: 'messages',
          body: {
            model: 'claude-sim-sonnet',
            max_tokens: 100,
            stream: true,
            messages: [{ role: 'user', content: 'hi' }],
          },
        },
        r,
      ),
    );
    for (let i = 0; i < 200 && !updates.some((u) => u.kind === 'end'); i++)
      await new Promise((res) => setTimeout(res, 25));
    await new Promise((res) => setTimeout(res, 100));
    await c.close();
    c = await core(dataDir);
    try {
      const list = value<{ runs: HistorySummary[] }>(await c.dispatch('history:list', { text: 'sonnet' }, rx));
      expect(list.runs.map((x) => x.runId)).toEqual([runId]);
      expect(list.runs[0]).toMatchObject({ verdict: 'complete', protocol: 'messages', model: 'claude-sim-sonnet' });
      const rec = value<RecordedRun>(await c.dispatch('history:get', { runId }, rx));
      expect(rec.events.map((e) => e.seq)).toEqual([...rec.events.keys()]);
      expect(rec.events[0].type).toBe('message_start');
      expect(rec.events.at(-1)?.type).toBe('message_stop');
      expect(JSON.stringify(rec)).not.toContain('demo-key');
      expect(
        value<{ runs: HistorySummary[] }>(await c.dispatch('history:list', { verdict: 'truncated' }, rx)).runs,
      ).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it('a run asked for the moment its verdict arrives is already in the list and can be opened', async () => {
    const c = await core();
    try {
      const asked = new Promise<{ list: Result<unknown>; got: Result<unknown> }>((resolve) => {
        const r: Receiver = {
          send: (_n, p) => {
            const end = (p as RunUpdate[]).find((u) => u.kind === 'end');
            // As over IPC or the WebSocket: the window's request arrives in a later turn of the event loop.
            if (end)
              setImmediate(
                () =>
                  void Promise.all([
                    c.dispatch('history:list', {}, rx),
                    c.dispatch('history:get', { runId: end.runId }, rx),
                  ]).then(([list, got]) => resolve({ list, got })),
              );
          },
        };
        void c.dispatch(
          'runs:start',
          {
            profileId: 'demo',
            protocol: 'chat',
            body: {
              model: 'sim-firehose',
              max_completion_tokens: 12_000,
              stream: true,
              messages: [{ role: 'user', content: 'hi' }],
            },
          },
          r,
        );
      });
      const { list, got } = await asked;
      expect(value<{ runs: HistorySummary[] }>(list).runs).toHaveLength(1);
      expect(value<RecordedRun>(got).events.length).toBeGreaterThan(12_000);
    } finally {
      await c.close();
    }
  });

  it('prunes oldest first by count and by bytes', async () => {
    const h = new HistoryStore(temp());
    await h.load();
    const run = (i: number, size: number): RecordedRun => ({
      ledger: {
        runId: `run_${i}`,
        protocol: 'chat',
        profileId: 'p',
        profileName: 'P',
        stream: true,
        method: 'POST',
        url: 'u',
        headers: {},
        body: '{}',
        bodyBytes: 2,
        startedAt: new Date(2026, 0, 1, 0, 0, i).toISOString(),
        warnings: [],
      },
      events: [{ seq: 0, t: 1, type: 'chunk', data: 'x'.repeat(size), size }],
      result: {
        verdict: 'complete',
        reason: '',
        transcript: { blocks: [], usage: {} },
        metrics: { totalMs: 1, events: 1, bytes: size, usage: {} },
        warnings: [],
        endedAt: '',
      },
      origin: 'composer',
    });
    await h.updateSettings({ maxRuns: 3 });
    for (let i = 0; i < 5; i++) await h.add(run(i, 100));
    expect((await h.list({ limit: 10, offset: 0 })).runs.map((r) => r.runId)).toEqual(['run_4', 'run_3', 'run_2']);
    await h.updateSettings({ maxRuns: 100, maxBytes: 5000 });
    await h.add(run(5, 3000));
    await h.add(run(6, 3000));
    expect((await h.list({ limit: 10, offset: 0 })).runs.map((r) => r.runId)).toEqual(['run_6']);
  });

  it('encodes a 100k-event run in slices, letting other work through, and it reads back event for event', async () => {
    const events = Array.from({ length: 100_000 }, (_, seq) => ({
      seq,
      t: seq / 10,
      type: 'chunk',
      data: `{"n":${seq}}`,
      size: 12,
    }));
    const big: RecordedRun = {
      ledger: {
        runId: 'run_big',
        protocol: 'chat',
        profileId: 'p',
        profileName: 'P',
        stream: true,
        method: 'POST',
        url: 'u',
        headers: {},
        body: '{}',
        bodyBytes: 2,
        startedAt: new Date().toISOString(),
        warnings: [],
      },
      events,
      result: {
        verdict: 'complete',
        reason: '',
        transcript: { blocks: [], usage: {} },
        metrics: { totalMs: 1, events: events.length, bytes: 0, usage: {} },
        warnings: [],
        endedAt: '',
      },
      origin: 'composer',
    };
    // Another caller's turns of the event loop (an IPC message, a push) while the run is encoded.
    let done = false;
    let turns = 0;
    const encoding = encodeRun(big).then((text) => ((done = true), text));
    while (!done && turns < 1_000) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(turns).toBeGreaterThanOrEqual(19);
    const h = new HistoryStore(temp());
    await h.load();
    await h.add(big);
    const back = await h.get('run_big');
    expect((await encoding).split('\n')).toHaveLength(100_002);
    expect(back?.events).toHaveLength(100_000);
    expect(back?.events[99_999]).toEqual(events[99_999]);
  });

  it('moves a corrupt index aside, reports it, and rebuilds the list from the run files', async () => {
    const dataDir = temp();
    const h = new HistoryStore(dataDir);
    await h.load();
    await h.add({
      ledger: {
        runId: 'run_keep',
        protocol: 'responses',
        profileId: 'p',
        profileName: 'P',
        stream: false,
        method: 'POST',
        url: 'u',
        headers: {},
        body: '{}',
        bodyBytes: 2,
        startedAt: '2026-01-01T00:00:00Z',
        warnings: [],
      },
      events: [],
      result: {
        verdict: 'http-error',
        reason: 'HTTP 500',
        transcript: { blocks: [], usage: {} },
        metrics: { totalMs: 1, events: 0, bytes: 0, usage: {} },
        warnings: [],
        endedAt: '',
      },
      origin: 'composer',
    });
    writeFileSync(path.join(dataDir, 'history', 'index.json'), '{"version":1,"runs":[{"runId":');
    writeFileSync(path.join(dataDir, 'history', 'run_broken.jsonl'), 'not json\n');
    const again = new HistoryStore(dataDir);
    const problems = await again.load();
    expect(problems.map((p) => p.message).join('\n')).toMatch(/index\.json is not valid JSON.*moved aside/);
    expect(problems.map((p) => p.message).join('\n')).toMatch(/run_broken\.jsonl could not be read/);
    expect((await again.list({ limit: 10, offset: 0 })).runs.map((r) => r.runId)).toEqual(['run_keep']);
    expect((await fs.readdir(path.join(dataDir, 'history'))).some((f) => f.startsWith('index.json.corrupt-'))).toBe(
      true,
    );
  });
});
