import { describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LoadRecord } from '../../../shared/contract';
import { summarize } from '../../../shared/load/stats';
import { tempDirs } from '../testing/temp-dirs';
import { LoadStore, MAX_LOAD_RUNS } from './load-store';

const tempDir = tempDirs('gp-load-store-');

const record = (n: number): LoadRecord => {
  const rows = [
    {
      i: 0,
      startMs: 0,
      verdict: 'complete' as const,
      e2eMs: 10 + n,
      ttftMs: 5,
      outputTokens: 3,
      itlMs: [2],
      reason: 'ok',
    },
  ];
  return {
    loadId: `load_${String(n).padStart(4, '0')}`,
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    state: 'finished',
    endReason: 'All 1 requests ended.',
    profileName: 'Demo gateway',
    protocol: 'messages',
    model: 'm',
    source: 'composer',
    config: { requests: 1, concurrency: 1 },
    summary: summarize(rows),
    rows,
    rateLimits: [],
  };
};

describe('load store', () => {
  it('keeps each run whole, lists newest first, and survives a restart', async () => {
    const dir = tempDir();
    const store = new LoadStore(dir);
    await store.load();
    await store.add(record(1));
    await store.add(record(2));
    const again = new LoadStore(dir);
    expect(await again.load()).toEqual([]);
    expect(again.list().map((r) => r.loadId)).toEqual(['load_0002', 'load_0001']);
    expect(again.list()[0]).not.toHaveProperty('rows');
    expect((await again.get('load_0001'))?.rows[0].e2eMs).toBe(11);
  });

  it('rebuilds a corrupt index from the run files, and says so', async () => {
    const dir = tempDir();
    const store = new LoadStore(dir);
    await store.load();
    await store.add(record(1));
    await store.add(record(2));
    await fs.writeFile(path.join(dir, 'load-runs', 'index.json'), '{"version":1,"runs":[');
    const again = new LoadStore(dir);
    const problems = await again.load();
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toContain('moved aside');
    expect(again.list().map((r) => r.loadId)).toEqual(['load_0002', 'load_0001']);
  });

  it(`prunes past ${MAX_LOAD_RUNS} runs, oldest first, files included`, async () => {
    const dir = tempDir();
    const store = new LoadStore(dir);
    await store.load();
    for (let n = 0; n < MAX_LOAD_RUNS + 2; n++) await store.add(record(n));
    expect(store.list()).toHaveLength(MAX_LOAD_RUNS);
    expect(await store.get('load_0000')).toBeUndefined();
    const files = (await fs.readdir(path.join(dir, 'load-runs'))).filter((f) => f.startsWith('load_'));
    expect(files).toHaveLength(MAX_LOAD_RUNS);
  });
});
