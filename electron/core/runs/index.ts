/**
 * Runs (docs/architecture.md §5): start one, stop one, and keep the finished ones for a while. Reading an
 * answer is runs/execute.ts; the finished run is handed to history by the core, not the renderer.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import type { RunCheck, RunSource, RunStartInput } from '../../../shared/contract';
import { sourceOfOrigin } from '../history-source';
import { PROTOCOL_INFO } from '../../../shared/protocols/types';
import { buildRequest } from '../http/request';
import { DEFAULT_TIMEOUTS, RequestTimer, type Timeouts } from '../http/timer';
import { scrubDeep } from '../secrets';
import { RunError } from '../errors';
import type { ProfileStore } from '../profiles';
import { EventLog } from '../event-log';
import { executeRun } from './execute';
import { buildResult } from './result';
import { ledgerOf } from './ledger';
import { DEFAULT_RECENT_BUDGET, RecentRuns, type KeptRun, type RecentBudget } from './recent';
import type { Ending, FinishedRun, RunContext, RunSink } from './types';

type Prepared = RunContext & { log: EventLog; judge?: (ending: Ending, ctx: RunContext) => Ending };

/** Where a run goes in History: its source when the origin alone does not say it, and the check it is a step of. */
export interface RunTag {
  source?: RunSource;
  check?: RunCheck;
}

export type { Ending, FinishedRun, RunContext, RunSink } from './types';

interface ActiveRun {
  timer: RequestTimer;
  sink: RunSink;
}

export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  private readonly finishedListeners: ((run: FinishedRun) => void | Promise<void>)[] = [];
  private readonly recent: RecentRuns;
  /** Runs not yet through their finished listeners: shutting down waits for them (see `settled`). */
  private readonly unfinished = new Set<Promise<FinishedRun>>();

  constructor(
    private readonly profiles: ProfileStore,
    private readonly timeouts: Timeouts = DEFAULT_TIMEOUTS,
    keep: Partial<RecentBudget> = {},
  ) {
    this.recent = new RecentRuns({ ...DEFAULT_RECENT_BUDGET, ...keep });
  }

  /** Called with every finished run before its promise settles (history, probes). */
  onFinished(listener: (run: FinishedRun) => void | Promise<void>): void {
    this.finishedListeners.push(listener);
  }

  /**
   * Starts the run and returns at once; everything after arrives as pushes to `sink`. `opts.headers` are a
   * replayed client's own headers (the core's agent checks; not part of `runs:start`), see buildRequest;
   * `opts.query` the query string such a client puts on the protocol's path (`beta=true`).
   */
  start(
    input: z.output<typeof RunStartInput>,
    sink: RunSink,
    opts: { headers?: Readonly<Record<string, string>>; query?: string; tag?: RunTag } = {},
  ): { runId: string; done: Promise<FinishedRun> } {
    return this.launch(this.prepare(input, sink, opts.headers, opts.query), input.origin, opts.tag);
  }

  /**
   * A run whose request and ledger the caller built (a connected agent's exchange, electron/core/agent-endpoint):
   * `send` replaces the plain gateway request, `judge` may re-word the ending of a path that is not a model's
   * reply (count_tokens, the model list).
   */
  startBuilt(
    built: Pick<RunContext, 'runId' | 'protocol' | 'req' | 'ledger' | 'key' | 'send'>,
    sink: RunSink,
    opts: { origin: string; judge?: (ending: Ending, ctx: RunContext) => Ending; tag?: RunTag },
  ): { runId: string; done: Promise<FinishedRun> } {
    return this.launch({ ...this.contextOf(built, sink), judge: opts.judge }, opts.origin, opts.tag);
  }

  private launch(ctx: Prepared, origin: string, tag: RunTag = {}): { runId: string; done: Promise<FinishedRun> } {
    const { runId, sink } = ctx;
    this.active.set(runId, { timer: ctx.timer, sink });
    sink.push({ kind: 'started', runId, ledger: ctx.ledger });
    const done = this.run(ctx).then(async (kept) => {
      this.active.delete(runId);
      kept.run.origin = origin;
      kept.run.source = tag.source ?? sourceOfOrigin(origin);
      if (tag.check) kept.run.check = tag.check;
      this.recent.add(runId, kept);
      sink.push({ kind: 'end', runId, result: kept.run.result });
      const finished = withLazyEvents(kept);
      for (const listener of this.finishedListeners) {
        try {
          await listener(finished);
        } catch {
          // History is best effort: a full disk must not turn a finished run into a crash.
        }
      }
      return finished;
    });
    this.unfinished.add(done);
    const forget = () => void this.unfinished.delete(done);
    done.then(forget, forget);
    return { runId, done };
  }

  /** Resolves once every run started so far has ended and its finished listeners (history) have run. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.unfinished]);
  }

  get(runId: string): FinishedRun | undefined {
    const kept = this.recent.get(runId);
    return kept && withEvents(kept);
  }

  /**
   * Stops a run. With `sink`, only a run started for that sink: a window or tab can stop its own runs, not
   * another's (run ids travel in pushes and history, so knowing one proves nothing). The core's own callers
   * (probes) pass none.
   */
  cancel(runId: string, sink?: RunSink): boolean {
    const run = this.active.get(runId);
    if (!run || (sink !== undefined && run.sink !== sink)) return false;
    run.timer.cancel();
    return true;
  }

  /** A window or tab went away: its runs have no one to report to. */
  cancelAllFor(sink: RunSink): number {
    let n = 0;
    for (const run of this.active.values()) {
      if (run.sink === sink) {
        run.timer.cancel();
        n++;
      }
    }
    return n;
  }

  cancelAll(): void {
    for (const run of this.active.values()) run.timer.cancel();
  }

  activeCount(): number {
    return this.active.size;
  }

  /** What the recently finished runs hold in memory (tests, diagnostics). */
  recentUsage(): { runs: number; events: number; bytes: number } {
    return this.recent.usage();
  }

  /** The request, its ledger and the run's context; throws RunError for an unknown profile. */
  private prepare(
    input: z.output<typeof RunStartInput>,
    sink: RunSink,
    clientHeaders?: Readonly<Record<string, string>>,
    query?: string,
  ): Prepared {
    const profile = this.profiles.get(input.profileId);
    if (!profile) throw new RunError('not_found', `No profile with id ${input.profileId}.`);
    const key = this.profiles.keyFor(profile.id);
    const stream = input.body.stream === true;
    const path = PROTOCOL_INFO[input.protocol].path;
    const req = buildRequest(profile, key, 'POST', path, input.body, {
      stream,
      ...(query ? { query: Object.fromEntries(new URLSearchParams(query)) } : {}),
      secrets: this.profiles.secretsFor(profile.id),
      clientHeaders,
    });
    const runId = `run_${randomUUID()}`;
    const ledger = ledgerOf(runId, input, profile, req);
    return this.contextOf({ runId, protocol: input.protocol, req, ledger, key }, sink);
  }

  private contextOf(
    built: Pick<RunContext, 'runId' | 'protocol' | 'req' | 'ledger' | 'key' | 'send'>,
    sink: RunSink,
  ): Prepared {
    const t0 = performance.now();
    return {
      ...built,
      secrets: built.req.secrets,
      timer: new RequestTimer(this.timeouts),
      timeouts: this.timeouts,
      sink,
      log: new EventLog(),
      since: () => Math.round((performance.now() - t0) * 100) / 100,
      warnings: [],
      state: { bytes: 0 },
    };
  }

  private async run(ctx: Prepared): Promise<KeptRun> {
    const read = await executeRun(ctx);
    const ending = ctx.judge ? ctx.judge(read, ctx) : read;
    ctx.timer.done();
    // The exit point: whatever a parser or fold made of the answer (a reason quoting an error, a transcript
    // block, a warning) is scrubbed once more, after JSON decoding turned escaped secrets back into plain ones.
    const result = scrubDeep(buildResult(ctx, ending, ctx.since()), ctx.secrets);
    return { run: { ledger: ctx.ledger, response: ctx.state.response, result, origin: 'composer' }, log: ctx.log };
  }
}

/** The run with its whole event list, built for this caller (see EventLog). */
function withEvents({ run, log }: KeptRun): FinishedRun {
  return { ...run, events: log ? listEvents(run, log) : [] };
}

/**
 * The same, with the list built only when first read. The finished-run listeners and the run's promise get
 * this: right after a verdict the next run may already be streaming, and a list nobody reads (a run whose
 * history write is off, a probe that only looks at the verdict) should not be built then.
 */
function withLazyEvents({ run, log }: KeptRun): FinishedRun {
  let events: FinishedRun['events'] | undefined;
  const lazy = { enumerable: true, get: () => (events ??= log ? listEvents(run, log) : []) };
  return Object.defineProperty({ ...run }, 'events', lazy) as FinishedRun;
}

function listEvents(run: KeptRun['run'], log: EventLog): FinishedRun['events'] {
  try {
    return log.events();
  } catch (err) {
    // Cannot happen short of a bug in the reader; the run's verdict and output are still worth keeping.
    run.result.warnings.push(
      `The run's events could not be listed: ${err instanceof Error ? err.message : String(err)}.`,
    );
    return [];
  }
}
