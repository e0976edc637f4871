/**
 * The job scheduler on its own, with fake cells: concurrency bound, rate-limit pauses and give-ups, cancel.
 */
import { describe, expect, it } from 'vitest';
import type { CapabilityProgress } from '../../../shared/contract';
import type { CapabilityResult } from '../../../shared/capabilities';
import { ProbeCancelled, abortableSleep } from './harness';
import type { CellOutcome } from './index';
import { Limiter, ProbeJob, type CellRunner, type ProbeCell } from './jobs';

function cellResult(cell: ProbeCell, outcome: CapabilityResult['outcome'], message: string = outcome): CapabilityResult {
  return { ...cell, outcome, message, evidence: { runIds: [], fields: {}, explanation: '' }, at: new Date().toISOString(), attempts: 1, durationMs: 1 };
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
      if (cell.model === 'limited' && attempt === 1) return { result: cellResult(cell, 'inconclusive', 'Rate limited'), rateLimited: true, retryAfterMs: 150 };
      return { result: cellResult(cell, 'proven') };
    };
    const { job, recorded, progress } = makeJob(cells(['limited', 'ok']), runCell);
    job.start();
    await job.finished;
    const limited = calls.filter((c) => c.model === 'limited');
    expect(limited).toHaveLength(2);
    expect(limited[1].at - limited[0].at).toBeGreaterThanOrEqual(140);
    expect(recorded.map((r) => [r.model, r.outcome])).toEqual(expect.arrayContaining([['limited', 'proven'], ['ok', 'proven']]));
    expect(progress.some((p) => p.pausedUntil !== undefined)).toBe(true);
  });

  it('gives up as inconclusive after maxAttempts, saying so', async () => {
    let n = 0;
    const runCell: CellRunner = async (_p, cell) => {
      n++;
      return { result: cellResult(cell, 'inconclusive', 'Rate limited (HTTP 429)'), rateLimited: true, retryAfterMs: 20 };
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

  it('a retry-after longer than allowed gives up on the model\'s other queued cells at once, other models go on', async () => {
    const ran: string[] = [];
    const runCell: CellRunner = async (_p, cell) => {
      ran.push(`${cell.model}/${cell.capability}`);
      if (cell.model === 'x') return { result: cellResult(cell, 'inconclusive', 'Rate limited'), rateLimited: true, retryAfterMs: 30_000 };
      return { result: cellResult(cell, 'proven') };
    };
    const list: ProbeCell[] = [
      ...(['tools', 'streaming', 'vision'] as const).map((capability) => ({ model: 'x', protocol: 'messages' as const, capability })),
      { model: 'y', protocol: 'messages', capability: 'tools' },
    ];
    // One worker: the model's later cells are only taken after the 429 is known.
    const { job, recorded, progress } = makeJob(list, runCell, { maxAttempts: 3, maxWaitMs: 1000 }, new Limiter(2), new Map(), 1);
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

  it('a later job keeps off a model until the retry-after a give-up recorded', async () => {
    const pauses = new Map<string, number>();
    const limited: CellRunner = async (_p, cell) => ({ result: cellResult(cell, 'inconclusive', 'Rate limited'), rateLimited: true, retryAfterMs: 200 });
    const first = makeJob(cells(['x']), limited, { maxAttempts: 3, maxWaitMs: 0 }, new Limiter(2), pauses);
    first.job.start();
    await first.job.finished;
    const t0 = Date.now();
    let ranAt = 0;
    const second = makeJob(cells(['x']), async (_p, cell) => {
      ranAt = Date.now();
      return { result: cellResult(cell, 'proven') };
    }, undefined, new Limiter(2), pauses);
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
