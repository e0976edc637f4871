import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../bridge', () => import('../test/fake-gateway'));

import { useAppStore } from './index';
import type { CompareColumn } from '../../../shared/contract';

const pristine = useAppStore.getState();
beforeEach(() => useAppStore.setState(pristine, true));

const col = (model: string): CompareColumn => ({ profileId: 'demo', protocol: 'chat', model });
const s = () => useAppStore.getState();
/** What "Run all" reports for these columns: run `runIds[i]` started with column i's settings of now. */
const started = (runIds: string[]) =>
  Object.fromEntries(s().compareColumnIds.map((id, i) => [id, { runId: runIds[i], column: s().compareColumns[i] }]));

describe('compare slice', () => {
  it('removing a column drops its own run, not the last one', () => {
    s().compareColumnsChanged([col('A'), col('B'), col('C')]);
    const [, b, c] = s().compareColumnIds;
    s().compareRunsStarted(started(['rA', 'rB', 'rC']));
    s().compareColumnRemoved(0);
    expect(s().compareColumns.map((x) => x.model)).toEqual(['B', 'C']);
    expect(s().compareRunIds).toEqual(['rB', 'rC']);
    expect(s().compareColumnIds).toEqual([b, c]);
  });

  it('a run that started for a column removed meanwhile is not given to another column', () => {
    s().compareColumnsChanged([col('A'), col('B'), col('C')]);
    const runs = started(['rA', 'rB', 'rC']);
    s().compareColumnRemoved(1);
    s().compareRunsStarted(runs);
    expect(s().compareRunIds).toEqual(['rA', 'rC']);
  });

  it('editing or adding a column keeps the others’ ids and runs; replacing all columns starts afresh', () => {
    s().compareColumnsChanged([col('A'), col('B')]);
    const ids = s().compareColumnIds;
    s().compareRunsStarted(started(['rA', 'rB']));
    s().compareColumnEdited(1, { model: 'B2' });
    s().compareColumnAdded(col('C'));
    expect(s().compareColumnIds.slice(0, 2)).toEqual(ids);
    expect(s().compareColumnIds).toHaveLength(3);
    expect(s().compareRunIds).toEqual(['rA', undefined]);
    s().compareColumnsChanged([col('X'), col('Y')]);
    expect(s().compareRunIds).toEqual([]);
    expect(s().compareColumnIds.some((id) => ids.includes(id))).toBe(false);
  });

  it.each<[string, Partial<CompareColumn>]>([
    ['model', { model: 'B2' }],
    ['protocol', { protocol: 'responses' }],
    ['profile', { profileId: 'other' }],
    ['overrides', { overrides: { temperature: 0.9 } }],
  ])('changing a column’s %s drops that column’s run, which was for the former settings', (_, patch) => {
    s().compareColumnsChanged([col('A'), { ...col('B'), overrides: { temperature: 0.2 } }]);
    s().compareRunsStarted(started(['rA', 'rB']));
    s().compareColumnEdited(1, patch);
    expect(s().compareRunIds).toEqual(['rA', undefined]);
  });

  it('an edit that leaves a column’s settings as they were keeps its run', () => {
    s().compareColumnsChanged([col('A'), { ...col('B'), overrides: { temperature: 0.2 } }]);
    s().compareRunsStarted(started(['rA', 'rB']));
    s().compareColumnEdited(1, { model: 'B', protocol: 'chat', overrides: { temperature: 0.2 } });
    expect(s().compareRunIds).toEqual(['rA', 'rB']);
  });

  it('a run started before its column was edited is not given to the edited column', () => {
    s().compareColumnsChanged([col('A'), col('B')]);
    const runs = started(['rA', 'rB']);
    s().compareColumnEdited(1, { model: 'B2' });
    s().compareRunsStarted(runs);
    expect(s().compareRunIds).toEqual(['rA', undefined]);
  });

  it('the JSON text stays as typed; the body follows when it parses', () => {
    s().compareJsonTyped('{"model": "m", "temperature": 0.0');
    expect(s().compareJsonError).toBeDefined();
    s().compareJsonTyped('{"model": "m",\n\n "temperature": 0.0}');
    expect(s().compareJsonText).toBe('{"model": "m",\n\n "temperature": 0.0}');
    expect(s().compareBody).toEqual({ model: 'm', temperature: 0 });
    expect(s().compareJsonError).toBeUndefined();
    s().compareBodyEdited({ model: 'n' });
    expect(s().compareJsonText).toBe('{\n  "model": "n"\n}');
  });
});

describe('compare slice: columns that follow the active profile', () => {
  const listed = (profileId: string, ids?: string[]) => ({
    profileId,
    models: ids?.map((id) => ({ id, family: 'anthropic' as const })),
  });

  it('a profile whose models are not known yet gets no model of the profile before', () => {
    s().compareProfileModelsSeen(listed('demo', ['claude-sim-sonnet']));
    const shown = () => s().compareColumns.map((c) => `${c.profileId}/${c.model}`);
    expect(shown()).toEqual(['demo/claude-sim-sonnet', 'demo/claude-sim-sonnet']);
    s().compareProfileModelsSeen(listed('env'));
    expect(shown()).toEqual(['env/', 'env/']);
    s().compareProfileModelsSeen(listed('env', ['relay-model']));
    expect(shown()).toEqual(['env/relay-model', 'env/relay-model']);
  });

  it('columns someone chose stay as they were; one of them still without a model gets a listed one', () => {
    s().compareColumnsChanged([col('A'), { ...col(''), profileId: 'env' }]);
    s().compareProfileModelsSeen(listed('env', ['relay-model']));
    expect(s().compareColumns.map((c) => c.model)).toEqual(['A', 'relay-model']);
  });
});
