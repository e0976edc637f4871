/**
 * The History filters over real files in a temp data dir: the model box is free text, and the search box
 * finds words anywhere in the whole output, after a restart too.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RecordedRun, StartupProblem } from '../../shared/contract';
import { HistoryStore } from './history-store';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-hist-');

function run(runId: string, model: string, text: string, startedAt = new Date().toISOString()): RecordedRun {
  return {
    ledger: {
      runId,
      protocol: 'chat',
      profileId: 'p',
      profileName: 'Demo gateway',
      model,
      stream: true,
      method: 'POST',
      url: 'u',
      headers: {},
      body: '{}',
      bodyBytes: 2,
      startedAt,
      warnings: [],
    },
    events: [],
    origin: 'composer',
    result: {
      verdict: 'complete',
      reason: 'ok',
      metrics: { status: 200, totalMs: 5, events: 0, bytes: 0, usage: {} },
      transcript: { blocks: [{ kind: 'text', text }], usage: {} },
      warnings: [],
      endedAt: new Date().toISOString(),
    },
  } as RecordedRun;
}

const ids = async (h: HistoryStore, f: { model?: string; text?: string }) =>
  (await h.list({ limit: 100, offset: 0, ...f })).runs.map((r) => r.runId);

// Far past the 160-character preview, well inside the searched bound.
const LONG = `${'Intro sentence. '.repeat(40)}The answer mentions PINEAPPLE here.`;

describe('history filters', () => {
  it('the model box finds runs by any part of the id, in any case', async () => {
    const h = new HistoryStore(temp());
    await h.load();
    await h.add(run('run_mini', 'gpt-4o-mini-2024-07-18', 'a', '2026-01-01T00:00:01Z'));
    await h.add(run('run_claude', 'claude-sonnet-4-5', 'b', '2026-01-01T00:00:02Z'));
    expect(await ids(h, { model: 'gpt-4o-mini' })).toEqual(['run_mini']);
    expect(await ids(h, { model: 'GPT-4o-Mini-2024-07-18' })).toEqual(['run_mini']);
    expect(await ids(h, { model: 'sonnet' })).toEqual(['run_claude']);
    expect(await ids(h, { model: '4' })).toEqual(['run_claude', 'run_mini']);
    expect(await ids(h, { model: 'gemini' })).toEqual([]);
  });

  it('search finds words anywhere in the whole output, after a restart too, and the index stays small', async () => {
    const dataDir = temp();
    const h = new HistoryStore(dataDir);
    await h.load();
    await h.add(run('run_long', 'gpt-4o', LONG));
    // Far past the 5,000 characters search used to stop at.
    await h.add(run('run_past', 'gpt-4o', `${'filler '.repeat(20_000)}MANGO`));
    expect(LONG.indexOf('PINEAPPLE')).toBeGreaterThan(160);
    expect(await ids(h, { text: 'pineapple' })).toEqual(['run_long']);
    // Every word, in any order, anywhere in that text.
    expect(await ids(h, { text: 'Pineapple  intro' })).toEqual(['run_long']);
    expect(await ids(h, { text: 'pineapple mango' })).toEqual([]);
    expect(await ids(h, { text: 'mango' })).toEqual(['run_past']);
    expect(Object.keys((await h.list({ limit: 10, offset: 0 })).runs[0])).not.toContain('searchText');
    // The index holds summaries, not outputs: 140 KB of output leaves it small.
    expect(readFileSync(path.join(dataDir, 'history', 'index.json'), 'utf8').length).toBeLessThan(2000);

    const again = new HistoryStore(dataDir);
    await again.load();
    expect(await ids(again, { text: 'mango' })).toEqual(['run_past']);
    // A run saved after the texts were read is found by its own text.
    await again.add(run('run_new', 'gpt-4o', 'a KIWI appears'));
    expect(await ids(again, { text: 'kiwi' })).toEqual(['run_new']);
  });

  it('an index that kept 5,000 characters of text is read, searched through the run files, and slimmed', async () => {
    const dataDir = temp();
    const h = new HistoryStore(dataDir);
    await h.load();
    await h.add(run('run_old', 'gpt-4o', LONG));
    const indexFile = path.join(dataDir, 'history', 'index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { runs: Record<string, unknown>[] };
    for (const r of index.runs) r.searchText = 'stale text';
    writeFileSync(indexFile, JSON.stringify(index));

    const again = new HistoryStore(dataDir);
    expect(await again.load()).toEqual([]);
    expect(await ids(again, { text: 'pineapple' })).toEqual(['run_old']);
    expect(await ids(again, { text: 'stale' })).toEqual([]);
    await again.add(run('run_next', 'gpt-4o', 'b'));
    expect(readFileSync(indexFile, 'utf8')).not.toContain('stale text');
  });
});

describe('the verdict filter', () => {
  it('finds complete runs that ended with warnings apart from clean ones, after a restart too', async () => {
    const dataDir = temp();
    const h = new HistoryStore(dataDir);
    await h.load();
    const warned = run('run_warned', 'm', 'a', '2026-01-01T00:00:01Z');
    warned.result.warnings = ['1 event could not be read and was skipped.'];
    await h.add(warned);
    await h.add(run('run_clean', 'm', 'b', '2026-01-01T00:00:02Z'));
    const byVerdict = async (store: HistoryStore, withWarnings?: boolean) =>
      (await store.list({ limit: 10, offset: 0, verdict: 'complete', withWarnings })).runs.map((r) => r.runId);
    expect(await byVerdict(h, true)).toEqual(['run_warned']);
    expect(await byVerdict(h, false)).toEqual(['run_clean']);
    expect(await byVerdict(h)).toEqual(['run_clean', 'run_warned']);
    expect((await h.list({ limit: 10, offset: 0 })).runs.find((r) => r.runId === 'run_warned')?.warnings).toBe(1);
    const again = new HistoryStore(dataDir);
    await again.load();
    expect(await byVerdict(again, true)).toEqual(['run_warned']);
  });
});

describe('history saves that fail', () => {
  it('never reject; they are reported in the problem list, counted, and cleared once a save works', async () => {
    const dataDir = temp();
    const problems: StartupProblem[] = [{ file: 'other.json', message: 'someone else' }];
    const h = new HistoryStore(dataDir, problems);
    await h.load();
    const dir = path.join(dataDir, 'history');
    // A file where the history folder should be fails the write even for root.
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a folder');
    await expect(h.add(run('run_a', 'm', 'a'))).resolves.toBeUndefined();
    expect(problems).toEqual([
      { file: 'other.json', message: 'someone else' },
      {
        file: dir,
        message: expect.stringMatching(
          /^The last run was not saved to history: .*history could not be written \(a file is where a folder should be, E[A-Z]+\)\. Check that the data folder is writable/,
        ),
      },
    ]);
    await h.add(run('run_b', 'm', 'b'));
    expect(problems).toHaveLength(2);
    expect(problems[1].message).toMatch(/^The last 2 runs were not saved/);
    expect(await ids(h, {})).toEqual([]);

    rmSync(dir);
    mkdirSync(dir);
    await h.add(run('run_c', 'm', 'c'));
    expect(problems).toEqual([{ file: 'other.json', message: 'someone else' }]);
    expect(await ids(h, {})).toEqual(['run_c']);
  });
});
