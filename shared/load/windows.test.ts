import { describe, expect, it } from 'vitest';
import type { LoadRow } from './stats';
import { errorKindOf, pointOf, windowSizeMs, windowStats, type WindowSample } from './windows';
import { windowsToCsv } from './csv';
import { LoadShapeSchema } from './shape';

const ok = (t: number, e2eMs: number, over: Partial<WindowSample> = {}): WindowSample => ({
  t,
  e2eMs,
  ttftMs: e2eMs / 10,
  ok: true,
  out: 10,
  ...over,
});

describe('figures over time', () => {
  it('puts each request in the window it ended in, with its percentiles, throughput and errors', () => {
    const points = [
      // 0–1 s: four completed, E2E 100, 200, 300, 400.
      ok(100, 100),
      ok(300, 200),
      ok(600, 300),
      ok(900, 400),
      // 1–2 s: one completed, a 429, a 503, a broken stream; one cancelled, which counts nowhere.
      ok(1_500, 1_000),
      { t: 1_100, e2eMs: 10, ok: false, err: 'rate-limited' as const },
      { t: 1_200, e2eMs: 10, ok: false, err: 'server' as const },
      { t: 1_300, e2eMs: 10, ok: false, err: 'stream' as const },
      { t: 1_400, e2eMs: 10, ok: false, cancelled: true },
    ];
    const { windowMs, windows } = windowStats({ points, elapsedMs: 2_000 });
    expect(windowMs).toBe(1_000);
    expect(windows).toHaveLength(2);
    const [a, b] = windows;
    expect(a).toMatchObject({ startMs: 0, endMs: 1_000, ended: 4, completed: 4, requestsPerSec: 4 });
    // numpy: percentile([100, 200, 300, 400], [50, 90, 99]) → 250, 370, 397.
    expect(a.e2eMs).toEqual({ p50: 250, p90: 370, p99: expect.closeTo(397, 9) });
    expect(a.ttftMs.p50).toBe(25);
    expect(a.outputTokensPerSec).toBe(40);
    expect(b).toMatchObject({ ended: 4, completed: 1, requestsPerSec: 4, outputTokensPerSec: 10 });
    expect(b.errors).toEqual({ 'rate-limited': 1, server: 1, timeout: 0, stream: 1, other: 0 });
    expect(b.e2eMs).toEqual({ p50: 1_000, p90: 1_000, p99: 1_000 });
  });

  it('divides the last window by the part of it the run lasted', () => {
    const { windows } = windowStats({ points: [ok(1_100, 50), ok(1_600, 50)], elapsedMs: 1_750 });
    expect(windows.at(-1)).toMatchObject({ startMs: 1_000, endMs: 1_750, ended: 2, requestsPerSec: 2 / 0.75 });
  });

  it('joins a tail shorter than half a window to the window before it, so the drain draws no spike', () => {
    // Two a second, then the three in flight when the shape ended all end in its last 100 ms.
    const points = [
      ok(400, 50),
      ok(900, 50),
      ok(1_400, 50),
      ok(1_900, 50),
      ok(2_040, 50),
      ok(2_060, 50),
      ok(2_080, 50),
    ];
    const { windows } = windowStats({ points, elapsedMs: 2_100 });
    expect(windows).toHaveLength(2);
    expect(windows[1]).toMatchObject({ startMs: 1_000, endMs: 2_100, ended: 5, requestsPerSec: 5 / 1.1 });
  });

  it('widens the windows of a long run so a chart holds at most 300', () => {
    expect(windowSizeMs(30_000)).toBe(1_000);
    expect(windowSizeMs(300_000)).toBe(1_000);
    expect(windowSizeMs(301_000)).toBe(2_000);
    expect(windowSizeMs(3_600_000)).toBe(15_000);
    const { windows, windowMs } = windowStats({ points: [ok(3_599_000, 10)], elapsedMs: 3_600_000 });
    expect(windowMs).toBe(15_000);
    expect(windows).toHaveLength(240);
  });

  it('carries each numeric rate-limit header to the end of every window, and leaves dates out', () => {
    const { windows, headers } = windowStats({
      points: [],
      elapsedMs: 3_000,
      rateLimits: [
        { t: 10, name: 'anthropic-ratelimit-requests-remaining', value: '999' },
        { t: 20, name: 'anthropic-ratelimit-requests-reset', value: '2026-01-01T00:00:00Z' },
        { t: 500, name: 'anthropic-ratelimit-requests-remaining', value: '990' },
        { t: 2_500, name: 'anthropic-ratelimit-requests-remaining', value: '950' },
      ],
    });
    expect(headers).toEqual(['anthropic-ratelimit-requests-remaining']);
    expect(windows.map((w) => w.rateLimits['anthropic-ratelimit-requests-remaining'])).toEqual([990, 990, 950]);
  });

  it('marks each window with the stage running at its start', () => {
    const shape = LoadShapeSchema.parse({
      kind: 'stages',
      stages: [
        { durationS: 1, concurrency: 2 },
        { durationS: 2, ratePerSec: 5 },
      ],
    });
    const { windows } = windowStats({ points: [], elapsedMs: 3_000, shape });
    expect(windows.map((w) => w.stage)).toEqual([0, 1, 1]);
  });

  it('classes failures as the rows say: status, error type, and whether the stream had begun', () => {
    expect(errorKindOf({ verdict: 'http-error', status: 429 })).toBe('rate-limited');
    expect(errorKindOf({ verdict: 'http-error', status: 529 })).toBe('server');
    expect(errorKindOf({ verdict: 'http-error', status: 400 })).toBe('other');
    expect(errorKindOf({ verdict: 'error-event', errorType: 'rate_limit_error' })).toBe('rate-limited');
    expect(errorKindOf({ verdict: 'error-event', errorType: 'overloaded_error' })).toBe('server');
    expect(errorKindOf({ verdict: 'error-event', errorType: 'invalid_request_error' })).toBe('other');
    expect(errorKindOf({ verdict: 'timeout' })).toBe('timeout');
    expect(errorKindOf({ verdict: 'truncated', status: 200 })).toBe('stream');
    expect(errorKindOf({ verdict: 'network-error', status: 200 })).toBe('stream');
    expect(errorKindOf({ verdict: 'network-error' })).toBe('other');
    expect(errorKindOf({ verdict: 'complete', status: 200 })).toBeUndefined();
    const row: LoadRow = { i: 3, startMs: 100, verdict: 'http-error', status: 503, e2eMs: 20, itlMs: [], reason: 'x' };
    expect(pointOf({ ...row, stage: 1 })).toEqual({ i: 3, t: 120, e2eMs: 20, ok: false, err: 'server', stage: 1 });
  });

  it('writes a line per window, header values last, gateway header names inert', () => {
    const stats = windowStats({
      points: [ok(500, 100), { t: 600, e2eMs: 5, ok: false, err: 'timeout' }],
      elapsedMs: 1_000,
      rateLimits: [{ t: 1, name: 'x-ratelimit-remaining', value: '7' }],
    });
    const lines = windowsToCsv(stats).split('\r\n');
    expect(lines[0]).toBe(
      'window_start_s,window_end_s,stage_index,requests_ended,completed,requests_per_s,output_tokens_per_s,' +
        'ttft_p50_ms,ttft_p90_ms,ttft_p99_ms,e2e_p50_ms,e2e_p90_ms,e2e_p99_ms,' +
        'errors_rate_limited,errors_server,errors_timeout,errors_stream,errors_other,x-ratelimit-remaining',
    );
    expect(lines[1]).toBe('0,1,,2,1,2,10,10,10,10,100,100,100,0,0,1,0,0,7');
    const hostile = windowsToCsv({ ...stats, headers: ['=cmd()'] }).split('\r\n')[0];
    expect(hostile.endsWith(`,"'=cmd()"`)).toBe(true);
  });
});
