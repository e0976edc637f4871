import { describe, expect, it } from 'vitest';
import { csvRows, parseLocustCsv } from './locust-csv';

// Locust 2.12's output of an exported locustfile (60 requests at 4 users, 2 of them failed), trimmed.
const STATS = [
  'Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%',
  'messages,E2E,58,0,640.0,639.35,606.2,687.5,74.0,5.8,0.0,640,640,650,650,670,670,680,690,690,690,690',
  'messages,E2E (failed),2,2,70,81.3,60.1,102.5,0.0,0.2,0.2,60,100,100,100,100,100,100,100,100,100,100',
  'messages,ITL,2784,0,12,12.87,0.01,36.1,0.0,278.4,0.0,12,13,13,14,16,17,20,21,30,36,36',
  'messages,TPOT,58,0,9,8.65,8.2,9.3,0.0,5.8,0.0,9,9,9,9,9,9,9,9,9,9,9',
  'messages,TTFT,58,0,5,8.09,2.8,41.5,0.0,5.8,0.0,5,8,8,13,17,22,37,41,41,41,41',
  ',Aggregated,2960,2,12,24.97,0.01,687.5,1.45,296.0,0.2,12,13,13,14,16,19,37,640,670,690,690',
].join('\n');
const HISTORY = [
  'Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%,Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,Total Average Content Size',
  '1795836113,0,,Aggregated,0.000000,0.000000,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,0,0,0,0.0,0,0,0',
  '1795836114,4,,Aggregated,0.000000,0.000000,13,13,13,13,14,15,16,850,850,850,850,53,0,13,32.0,0.02,851.0,1.4',
  '1795836124,3,,Aggregated,0.000000,0.000000,13,13,13,13,14,15,16,850,850,850,850,2960,2,13,32.0,0.02,851.0,1.4',
].join('\r\n');
const FAILURES = [
  'Method,Name,Error,Occurrences',
  'messages,E2E (failed),HTTP 529: Overloaded,1',
  'messages,E2E (failed),"network: (""Connection broken: InvalidChunkLength(got length b\'\', 0 bytes read)"", x)",1',
].join('\n');

describe('Import Locust results', () => {
  it('reads the summary figures Locust has, and none it has not', () => {
    const r = parseLocustCsv({ stats: STATS, history: HISTORY, failures: FAILURES });
    if (!r.ok) throw new Error(r.error);
    const { summary: s, config, protocol, startedAt } = r.value;
    expect(protocol).toBe('messages');
    expect(startedAt).toBe(new Date(1795836113 * 1000).toISOString());
    expect(config).toEqual({ requests: 60, concurrency: 4 });
    expect(s).toMatchObject({ sent: 60, completed: 58, failed: 2, cancelled: 0, totalOutputTokens: 4292 });
    expect(s.successRate).toBeCloseTo(58 / 60);
    // Locust's Requests/s is count ÷ (last report − start): 58 ÷ 5.8 = 10 s.
    expect(s.durationMs).toBeCloseTo(10_000);
    expect(s.requestsPerSec).toBeCloseTo(6);
    expect(s.completedPerSec).toBeCloseTo(5.8);
    expect(s.outputTokensPerSec).toBeCloseTo(429.2);
    expect(s.e2eMs).toEqual({ count: 58, mean: 639.35, p50: 640, p90: 670, p99: 690 });
    expect(s.ttftMs).toEqual({ count: 58, mean: 8.09, p50: 5, p90: 17, p99: 41 });
    expect(s.itlMs.count).toBe(2784);
    expect(s.tpotMs.p50).toBe(9);
    expect(s.outputTokensPerSecPerRequest).toEqual({ count: 0 });
    expect(s.errors.map((e) => [e.key, e.cls, e.count])).toEqual([
      ['HTTP 529', 'http', 1],
      ['network', 'network', 1],
    ]);
    expect(s.errors[1].examples[0].reason).toContain('Connection broken: InvalidChunkLength');
  });

  it('needs only the stats file; a gateway that reported no usage has no token figures', () => {
    const noUsage = STATS.replace('687.5,74.0,', '687.5,0.0,');
    const r = parseLocustCsv({ stats: noUsage });
    if (!r.ok) throw new Error(r.error);
    expect(r.value.config).toEqual({ requests: 60, concurrency: 0 });
    expect(r.value.summary.outputTokensPerSec).toBeUndefined();
    expect(r.value.summary.errors).toEqual([]);
  });

  it('says what is wrong with a file that is not the stats of an exported test', () => {
    const history = parseLocustCsv({ stats: HISTORY });
    expect(history).toEqual({ ok: false, error: expect.stringContaining('not Locust’s stats CSV') });
    const plain = parseLocustCsv({ stats: STATS.replace(/E2E/g, 'GET /') });
    expect(plain).toEqual({ ok: false, error: expect.stringContaining('no E2E entry') });
    const bad = parseLocustCsv({ stats: STATS.replace('5.8,0.0,640', 'fast,0.0,640') });
    expect(bad).toEqual({ ok: false, error: expect.stringContaining('“fast” in column “Requests/s”') });
    expect(parseLocustCsv({ stats: '' }).ok).toBe(false);
  });

  it('reads quoted CSV fields with commas, quotes and line breaks', () => {
    expect(csvRows('a,"b,""c""\nd",e\r\n1,2,3\n')).toEqual([
      ['a', 'b,"c"\nd', 'e'],
      ['1', '2', '3'],
    ]);
  });
});
