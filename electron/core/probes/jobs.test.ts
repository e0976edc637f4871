/**
 * The job scheduler on its own, with fake cells: concurrency bound, rate-limit pauses and give-ups, cancel.
 */
import { describe, expect, it } from 'vitest';
import type { CapabilityProgress } from '../../../shared/contract';
import type { CapabilityResult } from '../../../shared/capabilities';
import { ProbeCancelled, abortableSleep } from './harness';
import type { CellOutcome } from './index';
import { Limiter, ProbeJob, type CellRunner, type ProbeCell } from './jobs';

function cellResult(
  cell: ProbeCell,
  outcome: CapabilityResult['outcome'],
  message: string = outcome,
): CapabilityResult {
  return {
    ...cell,
    outcome,
    message,
    evidence: { runIds: [], fields: {}, explanation: '' },
    at: new Date().toISOString(),
    attempts: 1,
    durationMs: 1,
  };
}

function cells(models: string[]): ProbeCell[] {
  return models.map((model) => ({ model, protocol: 'messages', capability: 'tools' }));
}

function makeJob(
  list: ProbeCell[],
  runCell: CellRunner,
  policy = { maxAttempts: 3, maxWaitMs: 1000 },
  limiter = new Limiter(2),
  pauses = new Map<string, number>(),
  workers = 2,
) {
  const recorded: CapabilityResult[] = [];
  const progress: CapabilityProgress[] = [];
  const job = new ProbeJob('p', list, {
    limiter,
    policy,
    runCell,
    pauses,
    workers,
    record: async (_pid, r) => {
      recorded.push(r);
    },
    progress: (p) => progress.push(p),
  });
  return { job, recorded, progress };
}

describe('ProbeJob', () => {
  it('never runs more than the limiter allows, across jobs', async () => {
    const limiter = new Limiter(2);
    let active = 0;
    let peak = 0;
    const runCell: CellRunner = async (_p, cell) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
      return { result: cellResult(cell, 'proven') };
    };
    const a = makeJob(cells(['a', 'b', 'c', 'd']), runCell, undefined, limiter);
    const b = makeJob(cells(['e', 'f', 'g']), runCell, undefined, limiter);
    a.job.start();
    b.job.start();
    await Promise.all([a.job.finished, b.job.finished]);
    expect(peak).toBe(2);
    expect(a.recorded).toHaveLength(4);
    expect(b.recorded).toHaveLength(3);
    const last = a.progress.at(-1)!;
    expect(last).toMatchObject({ state: 'finished', done: 4, total: 4 });
    expect(a.progress.filter((p) => p.latest)).toHaveLength(4);
  });

  it('waits out retry-after before retrying a rate-limited cell, then records it', async () => {
    const calls: { model: string; at: number; attempt: number }[] = [];
    const runCell: CellRunner = async (_p, cell, _s, attempt) => {
      calls.push({ model: cell.model, at: Date.now(), attempt });
      if (cell.model === 'limited' && attempt === 1)
        return { result: cellResult(cell, 'inconclusive', 'Rate limited'), rateLimited: true, retryAfterMs: 150 };
      return { result: cellResult(cell, 'proven') };
    };
    const { job, recorded, progress } = makeJob(cells(['limited', 'ok']), runCell);
    job.start();
    await job.finished;
    const limited = calls.filter((c) => c.model === 'limited');
    expect(limited).toHaveLength(2);
    expect(limited[1].at - limited[0].at).toBeGreaterThanOrEqual(140);
    expect(recorded.map((r) => [r.model, r.outcome])).toEqual(
      expect.arrayContaining([
        ['limited', 'proven'],
        ['ok', 'proven'],
      ]),
    );
    expect(progress.some((p) => p.pausedUntil !== undefined)).toBe(true);
  });

  it('gives up as inconclusive after maxAttempts, saying so', async () => {
    let n = 0;
    const runCell: CellRunner = async (_p, cell) => {
      n++;
      return {
        result: cellResult(cell, 'inconclusive', 'Rate limited (HTTP 429)'),
        rateLimited: true,
        retryAfterMs: 20,
      };
    };
    const { job, recorded } = makeJob(cells(['x']), runCell, { maxAttempts: 2, maxWaitMs: 1000 });
    job.start();
    await job.finished;
    expect(n).toBe(2);
    expect(recorded[0].outcome).toBe('inconclusive');
    expect(recorded[0].message).toMatch(/still rate limited after 2 attempts \(the gateway asked to wait 20 ms\)/);
  });

  it('does not retry early when retry-after is longer than allowed', async () => {
    let n = 0;
    const runCell: CellRunner = async (_p, cell) => {
      n++;
      return { result: cellResult(cell, 'inconclusive', 'Rate limited'), rateLimited: true, retryAfterMs: 30_000 };
    };
    const { job, recorded } = makeJob(cells(['x']), runCell, { maxAttempts: 3, maxWaitMs: 1000 });
    job.start();
    await job.finished;
    expect(n).toBe(1);
    expect(recorded[0].message).toContain('the gateway asked to wait 30 s, longer than the 1 s allowed');
  });

  it("a retry-after longer than allowed gives up on the model's other queued cells at once, other models go on", async () => {
    const ran: string[] = [];
    const runCell: CellRunner = async (_p, cell) => {
      ran.push(`${cell.model}/${cell.capability}`);
      if (cell.model === 'x')
        return { result: cellResult(cell, 'inconclusive', 'Rate limited'), rateLimited: true, retryAfterMs: 30_000 };
      return { result: cellResult(cell, 'proven') };
    };
    const list: ProbeCell[] = [
      ...(['tools', 'streaming', 'vision'] as const).map((capability) => ({
        model: 'x',
        protocol: 'messages' as const,
        capability,
      })),
      { model: 'y', protocol: 'messages', capability: 'tools' },
    ];
    // One worker: the model's later cells are only taken after the 429 is known.
    const { job, recorded, progress } = makeJob(
      list,
      runCell,
      { maxAttempts: 3, maxWaitMs: 1000 },
      new Limiter(2),
      new Map(),
      1,
    );
    const t0 = Date.now();
    job.start();
    await job.finished;
    expect(Date.now() - t0).toBeLessThan(500);
    expect(ran).toEqual(['x/tools', 'y/tools']);
    const x = recorded.filter((r) => r.model === 'x');
    expect(x).toHaveLength(3);
    for (const r of x) {
      expect(r.outcome).toBe('inconclusive');
      expect(r.message).toMatch(/wait (29|30) s.*longer than the 1 s allowed; try again later/);
    }
    expect(recorded.find((r) => r.model === 'y')?.outcome).toBe('proven');
    expect(progress.at(-1)).toMatchObject({ state: 'finished', done: 4, total: 4 });
  });

  it('a model that keeps rate-limiting costs maxAttempts waits, not that many per cell; the others go on', async () => {
    const sent: { model: string; at: number }[] = [];
    const runCell: CellRunner = async (_p, cell) => {
      sent.push({ model: cell.model, at: Date.now() });
      await new Promise((r) => setTimeout(r, 5));
      if (cell.model === 'limited') {
        return {
          result: cellResult(cell, 'inconclusive', 'Rate limited (HTTP 429)'),
          rateLimited: true,
          retryAfterMs: 200,
        };
      }
      return { result: cellResult(cell, 'proven') };
    };
    const capabilities = ['streaming', 'tools', 'tool-roundtrip', 'caching', 'thinking', 'vision'] as const;
    const list: ProbeCell[] = ['limited', 'ok-1', 'ok-2'].flatMap((model) =>
      capabilities.map((capability) => ({ model, protocol: 'messages' as const, capability })),
    );
    const { job, recorded, progress } = makeJob(list, runCell, { maxAttempts: 3, maxWaitMs: 1000 });
    const t0 = Date.now();
    job.start();
    await job.finished;

    // Two requests may race out before the first 429 is known; after it, one cell at a time: three 429s in all.
    const limited = sent.filter((x) => x.model === 'limited');
    expect(limited.length).toBeLessThanOrEqual(4);
    // Three waits of 200 ms, where one per cell would take seconds.
    expect(Date.now() - t0).toBeLessThan(1500);
    // Every other model's cell went out while the limited one waited for its first retry.
    const lastOk = Math.max(...sent.filter((x) => x.model !== 'limited').map((x) => x.at));
    expect(lastOk).toBeLessThan(limited[limited.length - 1].at);
    expect(lastOk - t0).toBeLessThan(200);
    const limitedResults = recorded.filter((r) => r.model === 'limited');
    expect(limitedResults).toHaveLength(capabilities.length);
    for (const r of limitedResults) expect(r.outcome).toBe('inconclusive');
    expect(
      limitedResults.filter((r) => /not run: this model was still rate limited after 3 attempts/.test(r.message))
        .length,
    ).toBeGreaterThanOrEqual(capabilities.length - 2);
    expect(recorded.filter((r) => r.model !== 'limited').every((r) => r.outcome === 'proven')).toBe(true);
    // The wait is shown, by model.
    const waits = progress.flatMap((p) => p.waiting ?? []);
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits.map((w) => w.model))).toEqual(new Set(['limited']));
    expect(progress.at(-1)).toMatchObject({ state: 'finished', done: list.length, total: list.length });
  });

  it('after a 429 one cell goes first; once it gets through, the model’s other cells follow', async () => {
    let limitedCalls = 0;
    let inFlight = 0;
    let peak = 0;
    const runCell: CellRunner = async (_p, cell) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 10));
      inFlight--;
      if (++limitedCalls === 1)
        return { result: cellResult(cell, 'inconclusive'), rateLimited: true, retryAfterMs: 50 };
      return { result: cellResult(cell, 'proven') };
    };
    const list: ProbeCell[] = (['streaming', 'tools', 'vision', 'caching'] as const).map((capability) => ({
      model: 'm',
      protocol: 'messages' as const,
      capability,
    }));
    // One worker first, so the 429 is known before anything else goes out.
    const { job, recorded } = makeJob(list, runCell, { maxAttempts: 3, maxWaitMs: 1000 }, new Limiter(2), new Map(), 1);
    job.start();
    await job.finished;
    expect(recorded.map((r) => r.outcome)).toEqual(['proven', 'proven', 'proven', 'proven']);
    expect(limitedCalls).toBe(5);
    expect(peak).toBe(1);
  });

  it('a later job keeps off a model until the retry-after a give-up recorded', async () => {
    const pauses = new Map<string, number>();
    const limited: CellRunner = async (_p, cell) => ({
      result: cellResult(cell, 'inconclusive', 'Rate limited'),
      rateLimited: true,
      retryAfterMs: 200,
    });
    const first = makeJob(cells(['x']), limited, { maxAttempts: 3, maxWaitMs: 0 }, new Limiter(2), pauses);
    first.job.start();
    await first.job.finished;
    const t0 = Date.now();
    let ranAt = 0;
    const second = makeJob(
      cells(['x']),
      async (_p, cell) => {
        ranAt = Date.now();
        return { result: cellResult(cell, 'proven') };
      },
      undefined,
      new Limiter(2),
      pauses,
    );
    second.job.start();
    await second.job.finished;
    expect(ranAt - t0).toBeGreaterThanOrEqual(150);
    expect(second.progress.find((p) => p.pausedUntil)).toBeDefined();
  });

  it('cancels: stops in-flight cells, records nothing more, ends with state cancelled', async () => {
    const runCell: CellRunner = async (_p, _cell, signal): Promise<CellOutcome> => {
      await abortableSleep(10_000, signal);
      throw new Error('not reached');
    };
    const { job, recorded, progress } = makeJob(cells(['a', 'b', 'c']), runCell);
    job.start();
    await new Promise((r) => setTimeout(r, 20));
    expect(job.cancel()).toBe(true);
    await job.finished;
    expect(recorded).toEqual([]);
    expect(progress.at(-1)).toMatchObject({ state: 'cancelled', done: 0, total: 3 });
    expect(job.cancel()).toBe(false);
  });

  it('a probe stopped from outside (its run cancelled in the viewer, core shutdown) stops the whole job', async () => {
    let n = 0;
    const runCell: CellRunner = async () => {
      n++;
      throw new ProbeCancelled();
    };
    const { job, recorded, progress } = makeJob(cells(['a', 'b', 'c', 'd']), runCell);
    job.start();
    await job.finished;
    expect(n).toBeLessThanOrEqual(2);
    expect(recorded).toEqual([]);
    expect(progress.at(-1)).toMatchObject({ state: 'cancelled' });
  });
});

describe('Limiter', () => {
  it('lets a waiting acquire give up when its job is cancelled', async () => {
    const limiter = new Limiter(1);
    const release = await limiter.acquire(new AbortController().signal);
    const ctrl = new AbortController();
    const waiting = limiter.acquire(ctrl.signal);
    ctrl.abort();
    await expect(waiting).rejects.toBeInstanceOf(ProbeCancelled);
    release();
    const again = await limiter.acquire(new AbortController().signal);
    again();
  });
});
