import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../bridge', () => ({ gateway: {}, onHostConnection: () => () => {} }));

import { useAppStore } from './index';
import type { CompareColumn } from '../../../shared/contract';

const pristine = useAppStore.getState();
beforeEach(() => useAppStore.setState(pristine, true));

const col = (model: string): CompareColumn => ({ profileId: 'demo', protocol: 'chat', model });
const s = () => useAppStore.getState();

describe('compare slice', () => {
  it('removing a column drops its own run, not the last one', () => {
    s().compareColumnsChanged([col('A'), col('B'), col('C')]);
    const [a, b, c] = s().compareColumnIds;
    s().compareRunsStarted({ [a]: 'rA', [b]: 'rB', [c]: 'rC' });
    s().compareColumnRemoved(0);
    expect(s().compareColumns.map((x) => x.model)).toEqual(['B', 'C']);
    expect(s().compareRunIds).toEqual(['rB', 'rC']);
    expect(s().compareColumnIds).toEqual([b, c]);
  });

  it('a run that started for a column removed meanwhile is not given to another column', () => {
    s().compareColumnsChanged([col('A'), col('B'), col('C')]);
    const [a, b, c] = s().compareColumnIds;
    s().compareColumnRemoved(1);
    s().compareRunsStarted({ [a]: 'rA', [b]: 'rB', [c]: 'rC' });
    expect(s().compareRunIds).toEqual(['rA', 'rC']);
  });

  it('editing or adding a column keeps the others’ ids and runs; replacing all columns starts afresh', () => {
    s().compareColumnsChanged([col('A'), col('B')]);
    const ids = s().compareColumnIds;
    s().compareRunsStarted({ [ids[0]]: 'rA', [ids[1]]: 'rB' });
    s().compareColumnEdited(1, { model: 'B2' });
    s().compareColumnAdded(col('C'));
    expect(s().compareColumnIds.slice(0, 2)).toEqual(ids);
    expect(s().compareColumnIds).toHaveLength(3);
    expect(s().compareRunIds).toEqual(['rA', 'rB']);
    s().compareColumnsChanged([col('X'), col('Y')]);
    expect(s().compareRunIds).toEqual([]);
    expect(s().compareColumnIds.some((id) => ids.includes(id))).toBe(false);
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
