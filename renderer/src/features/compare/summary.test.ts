import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../../shared/contract';
import { summaryRows } from './summary';

const result = (verdict: RunResult['verdict'], ttft: number, tps?: number): RunResult => ({
  verdict,
  reason: '',
  transcript: { blocks: [], usage: {} },
  metrics: { ttftMs: ttft, totalMs: ttft * 10, events: 1, bytes: 1, usage: { output: 5 }, outputTokensPerSec: tps },
  warnings: [],
  endedAt: '',
});

describe('comparison summary', () => {
  it('marks the best value per row among complete runs only', () => {
    const rows = summaryRows([result('complete', 30, 50), result('truncated', 5, 500), result('complete', 20, 40)]);
    const ttft = rows.find((r) => r.label.startsWith('time to first token'))!;
    expect(ttft.values).toEqual([30, 5, 20]);
    expect(ttft.best).toBe(2);
    expect(rows.find((r) => r.label === 'output tokens/s')!.best).toBe(0);
    expect(rows.find((r) => r.label === 'cached tokens')!.values).toEqual([undefined, undefined, undefined]);
    expect(rows.find((r) => r.label === 'cached tokens')!.best).toBeUndefined();
  });
});
