import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../../shared/contract';
import { summaryRows } from './summary';

const result = (verdict: RunResult['verdict'], ttft: number, tps?: number, cached?: number): RunResult => ({
  verdict,
  reason: '',
  transcript: { blocks: [], usage: {} },
  metrics: {
    ttftMs: ttft,
    totalMs: ttft * 10,
    events: 1,
    bytes: 1,
    usage: { output: 5, inputTotal: 14, inputCached: cached },
    outputTokensPerSec: tps,
  },
  warnings: [],
  endedAt: '',
});
const rowOf = (rows: ReturnType<typeof summaryRows>, label: string) => rows.find((r) => r.label.startsWith(label))!;

describe('comparison summary', () => {
  it('marks the best value per row among complete runs only', () => {
    const rows = summaryRows([result('complete', 30, 50), result('truncated', 5, 500), result('complete', 20, 40)]);
    const ttft = rowOf(rows, 'time to first token');
    expect(ttft.values).toEqual([30, 5, 20]);
    expect(ttft.best).toBe(2);
    expect(rowOf(rows, 'output tokens/s').best).toBe(0);
    expect(rowOf(rows, 'cached tokens').values).toEqual([undefined, undefined, undefined]);
    expect(rowOf(rows, 'cached tokens').best).toBeUndefined();
  });

  it('stars no one in a tie: cached tokens 0 | 0 | 0 like input tokens 14 | 14 | 14', () => {
    const rows = summaryRows([
      result('complete', 30, 50, 0),
      result('complete', 20, 40, 0),
      result('complete', 20, 60, 0),
    ]);
    expect(rowOf(rows, 'cached tokens').values).toEqual([0, 0, 0]);
    expect(rowOf(rows, 'cached tokens').best).toBeUndefined();
    expect(rowOf(rows, 'input tokens').best).toBeUndefined();
    // A tie for the best is no best either, even when a third run is worse.
    expect(rowOf(rows, 'time to first token').values).toEqual([30, 20, 20]);
    expect(rowOf(rows, 'time to first token').best).toBeUndefined();
    expect(rowOf(rows, 'output tokens/s').best).toBe(2);
  });

  it('a single run ahead of a tie for second still gets its star', () => {
    const rows = summaryRows([
      result('complete', 30, 50, 12),
      result('complete', 40, 40, 0),
      result('complete', 40, 40, 0),
    ]);
    expect(rowOf(rows, 'cached tokens').best).toBe(0);
    expect(rowOf(rows, 'time to first token').best).toBe(0);
  });
});
