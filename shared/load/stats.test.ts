import { describe, expect, it } from 'vitest';
import { distribution, errorGroups, gapsOf, percentile, summarize, tpotOf, type LoadRow } from './stats';
import { rowsToCsv } from './csv';

const row = (over: Partial<LoadRow> & Pick<LoadRow, 'i'>): LoadRow => ({
  startMs: 0,
  verdict: 'complete',
  e2eMs: 100,
  itlMs: [],
  reason: 'ok',
  ...over,
});

describe('percentiles', () => {
  it('interpolate linearly between closest ranks, as numpy does', () => {
    // numpy.percentile([1, 2, 3, 4], [50, 90, 99]) → 2.5, 3.7, 3.97 (checked by hand: pos = 3q/100).
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([1, 2, 3, 4], 90)).toBeCloseTo(3.7, 10);
    expect(percentile([1, 2, 3, 4], 99)).toBeCloseTo(3.97, 10);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });

  it('sort numerically, not as strings, and give the mean', () => {
    // As strings, 100 would sort before 20; the median of 3, 20, 100 is 20.
    expect(distribution([100, 3, 20])).toEqual({ count: 3, mean: 41, p50: 20, p90: 84, p99: 98.4 });
    expect(distribution([])).toEqual({ count: 0 });
  });

  it('give the sorted percentiles for many samples, ties and runs of zero gaps included', () => {
    // ITL samples of streams that arrive in one chunk are mostly 0; a few stalls, and some order.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const sets = [
      Array.from({ length: 5001 }, () => (next() < 0.9 ? 0 : Math.round(next() * 4000) / 100)),
      Array.from({ length: 250 }, () => next() * 100),
      Array.from({ length: 1000 }, (_, i) => i % 7),
      Array.from({ length: 999 }, (_, i) => 999 - i),
      [5, 5, 5, 5],
      [2, 1],
    ];
    for (const values of sets) {
      const sorted = [...values].sort((a, b) => a - b);
      const got = distribution(values);
      for (const q of [50, 90, 99] as const) expect(got[`p${q}`]).toBeCloseTo(percentile(sorted, q)!, 10);
      expect(got.count).toBe(values.length);
    }
  });
});

describe('per-request metrics', () => {
  it('TPOT excludes the first token: (E2E − TTFT) ÷ (output − 1)', () => {
    expect(tpotOf({ e2eMs: 1000, ttftMs: 100, outputTokens: 10 })).toBe(100);
    expect(tpotOf({ e2eMs: 1000, ttftMs: 100, outputTokens: 1 })).toBeUndefined();
    expect(tpotOf({ e2eMs: 1000, ttftMs: undefined, outputTokens: 10 })).toBeUndefined();
    // Usage not reported is not guessed.
    expect(tpotOf({ e2eMs: 1000, ttftMs: 100, outputTokens: undefined })).toBeUndefined();
  });

  it('ITL samples are the gaps between successive content events', () => {
    expect(gapsOf([100, 130, 190, 200])).toEqual([30, 60, 10]);
    expect(gapsOf([100])).toEqual([]);
  });
});

describe('the summary', () => {
  const rows: LoadRow[] = [
    row({ i: 0, startMs: 0, e2eMs: 1000, ttftMs: 100, outputTokens: 10, itlMs: [50, 150] }),
    row({ i: 1, startMs: 500, e2eMs: 1500, ttftMs: 300, outputTokens: 5, itlMs: [100] }),
    row({ i: 2, startMs: 600, verdict: 'http-error', status: 429, e2eMs: 20, reason: 'HTTP 429 rate_limit_error' }),
    row({ i: 3, startMs: 700, verdict: 'http-error', status: 529, e2eMs: 20, reason: 'HTTP 529 overloaded' }),
    row({ i: 4, startMs: 800, verdict: 'http-error', status: 429, e2eMs: 30, reason: 'HTTP 429 again' }),
    row({ i: 5, startMs: 900, verdict: 'cancelled', e2eMs: 50, reason: 'Stopped' }),
  ];
  const s = summarize(rows);

  it('counts successes over requests that ended, leaving stopped ones out', () => {
    expect(s).toMatchObject({ sent: 6, completed: 2, failed: 3, cancelled: 1, successRate: 0.4 });
  });

  it('rates over the run: first request sent to last verdict', () => {
    // 0 → 2000 ms (request 1 ends at 500 + 1500).
    expect(s.durationMs).toBe(2000);
    // Every request that ended counts, failed ones too (5 in 2 s); the cancelled one does not.
    expect(s.requestsPerSec).toBe(2.5);
    expect(s.completedPerSec).toBe(1);
    expect(s.totalOutputTokens).toBe(15);
    expect(s.outputTokensPerSec).toBe(7.5);
    // Per request: 10/1 s and 5/1.5 s.
    expect(s.outputTokensPerSecPerRequest.mean).toBeCloseTo((10 + 10 / 3) / 2, 10);
  });

  it('requests/s of a burst that all failed fast is their rate, not 0: 20 429s in 16 ms are 1,250/s', () => {
    const burst = Array.from({ length: 20 }, (_, i) =>
      row({ i, startMs: i * 0.5, verdict: 'http-error', status: 429, e2eMs: 6.5, reason: 'HTTP 429' }),
    );
    const b = summarize(burst);
    expect(b.durationMs).toBe(16);
    expect(b.requestsPerSec).toBe(1250);
    expect(b.completedPerSec).toBe(0);
  });

  it('latencies over completed requests; ITL pooled over every gap', () => {
    expect(s.ttftMs).toMatchObject({ count: 2, mean: 200, p50: 200 });
    expect(s.e2eMs).toMatchObject({ count: 2, mean: 1250 });
    expect(s.itlMs).toMatchObject({ count: 3, mean: 100, p50: 100 });
    // (1000 − 100) / 9 = 100 and (1500 − 300) / 4 = 300.
    expect(s.tpotMs).toMatchObject({ count: 2, mean: 200 });
  });

  it('groups errors by class and status, with examples, most frequent first', () => {
    expect(errorGroups(rows)).toEqual([
      {
        key: 'HTTP 429',
        cls: 'http',
        count: 2,
        examples: [
          { i: 2, reason: 'HTTP 429 rate_limit_error' },
          { i: 4, reason: 'HTTP 429 again' },
        ],
      },
      { key: 'HTTP 529', cls: 'http', count: 1, examples: [{ i: 3, reason: 'HTTP 529 overloaded' }] },
    ]);
    const other = errorGroups([
      row({ i: 0, verdict: 'truncated' }),
      row({ i: 1, verdict: 'network-error' }),
      row({ i: 2, verdict: 'timeout' }),
      row({ i: 3, verdict: 'error-event' }),
    ]);
    expect(other.map((g) => g.key).sort()).toEqual(['error event', 'network', 'timeout', 'truncated']);
  });

  it('writes every row as CSV, quoting reasons', () => {
    const csv = rowsToCsv(rows.slice(0, 3)).split('\r\n');
    expect(csv[0]).toBe(
      'request,start_ms,verdict,status,ttft_ms,e2e_ms,tpot_ms,itl_mean_ms,itl_count,' +
        'input_tokens,output_tokens,error_type,reason',
    );
    expect(csv[1]).toBe('0,0,complete,,100,1000,100,100,2,,10,,ok');
    expect(rowsToCsv([row({ i: 9, reason: 'said "no", twice' })])).toContain('"said ""no"", twice"');
  });

  it('neutralises gateway text a spreadsheet would run as a formula, and keeps negative numbers numbers', () => {
    const formulas = ['=HYPERLINK("https://evil","x")', '+cmd|/c calc!A1', '-2+3', '@SUM(A1)', '\tx', '\rx'];
    const csv = rowsToCsv(formulas.map((f, i) => row({ i, reason: f, errorType: f, startMs: -5 })));
    const lines = csv.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(formulas.length);
    formulas.forEach((f, i) => {
      const quoted = `"'${f.replace(/"/g, '""')}"`;
      expect(lines[i].startsWith(`${i},-5,`)).toBe(true);
      expect(lines[i].endsWith(`,${quoted},${quoted}`)).toBe(true);
    });
  });
});
