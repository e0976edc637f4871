import { describe, expect, it } from 'vitest';
import { summarize, type LoadRow } from '../../../../shared/load/stats';
import { better, figuresOf } from './format';
import { loadInput } from './LoadForm';
import { DEFAULT_LOAD_SETTINGS, type LoadSettings } from '../../store/load-slice';

describe('comparing two load runs', () => {
  const latency = { label: 'E2E', text: '', higherIsBetter: false };
  const throughput = { label: 'req/s', text: '', higherIsBetter: true };

  it('marks the lower latency and the higher throughput', () => {
    expect(better(latency, 100, 200)).toBe('a');
    expect(better(latency, 300, 200)).toBe('b');
    expect(better(throughput, 10, 20)).toBe('b');
  });

  it('marks nothing within 5 %, or when a side has no figure', () => {
    expect(better(latency, 100, 104)).toBeUndefined();
    expect(better(latency, 100, undefined)).toBeUndefined();
    expect(better(throughput, 0, 0)).toBeUndefined();
  });

  it('lists success, throughput and each latency at mean, p50, p90, p99', () => {
    const rows: LoadRow[] = [
      { i: 0, startMs: 0, verdict: 'complete', e2eMs: 1000, ttftMs: 100, outputTokens: 11, itlMs: [90], reason: 'ok' },
    ];
    const figures = figuresOf(summarize(rows));
    expect(figures).toHaveLength(5 + 16);
    expect(figures[0]).toMatchObject({ label: 'Success rate', text: '100.0 %' });
    expect(figures.find((f) => f.label === 'Time per output token p50')?.text).toBe('90.0 ms');
    expect(figures.find((f) => f.label === 'Output tokens/s')?.text).toBe('11.00 tok/s');
  });
});

describe('requests per second', () => {
  const fail = (i: number, startMs: number, e2eMs: number): LoadRow => ({
    i,
    startMs,
    verdict: 'http-error',
    status: 429,
    e2eMs,
    itlMs: [],
    reason: 'HTTP 429',
  });
  const text = (rows: LoadRow[], label: string) => figuresOf(summarize(rows)).find((f) => f.label === label)?.text;

  it('20 requests that all got 429 in 16 ms read 1,250 req/s, not 0.00', () => {
    const rows = Array.from({ length: 20 }, (_, i) => fail(i, i * 0.5, 6.5));
    expect(text(rows, 'Requests/s')).toBe('1250.00 req/s');
    expect(text(rows, 'Completed/s')).toBe('0.00 req/s');
  });

  it('requests that ended in no measurable time say so rather than a rate', () => {
    expect(text([fail(0, 0, 0)], 'Requests/s')).toBe('too short to measure');
  });
});

describe('the Load form', () => {
  const settings: LoadSettings = {
    ...DEFAULT_LOAD_SETTINGS,
    source: 'messages',
    profileId: '',
    model: '',
    requests: '50',
    concurrency: '8',
    ratePerSec: '',
    durationCapS: '',
  };
  const request = { protocol: 'messages' as const, body: { model: 'm', stream: true }, source: 'Messages composer' };

  it('builds the start input, with the active profile and a model override', () => {
    expect(loadInput({ ...settings, model: 'other' }, request, 'demo').input).toEqual({
      profileId: 'demo',
      protocol: 'messages',
      body: { model: 'other', stream: true },
      requests: 50,
      concurrency: 8,
      ratePerSec: undefined,
      durationCapS: undefined,
      shape: { kind: 'fixed' },
      source: 'Messages composer',
    });
  });

  it('says which field is out of bounds, and starts nothing', () => {
    const r = loadInput(
      { ...settings, requests: '10001', concurrency: '0', ratePerSec: 'fast', durationCapS: '-1' },
      request,
      'demo',
    );
    expect(r.input).toBeUndefined();
    expect(r.errors).toEqual({
      requests: 'a whole number from 1 to 10,000',
      concurrency: 'a whole number from 1 to 64',
      ratePerSec: 'empty, or a number above 0 and at most 1000',
      durationCapS: 'empty, or a number above 0 and at most 3600',
    });
    expect(loadInput({ ...settings, requests: '2.5' }, request, 'demo').errors.requests).toBeDefined();
  });
});
