/**
 * One request sent many times with one profile: a load run (docs/load.md). Each send is read by executeRun,
 * the reader of every composer run (same SSE parse, fold and verdict), so a load row's verdict means what a
 * single run's does. What a row never shows is not made: no event log (events are counted, not kept or
 * pushed), one ledger for the record rather than one per request, no transcript text in the result. The
 * request is built once, and again only when the profile it is sent with changes.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import type { Ledger, RunStartInput } from '../../../shared/contract';
import { PROTOCOL_INFO, type Usage, type Verdict } from '../../../shared/protocols/types';
import { buildRequest, type BuiltRequest } from '../http/request';
import { RequestTimer, type Timeouts } from '../http/timer';
import { scrub } from '../secrets';
import { RunError } from '../errors';
import { CountingLog } from '../event-log';
import type { Profile, ProfileStore } from '../profiles';
import { executeRun } from './execute';
import { ledgerOf } from './ledger';
import type { RunContext } from './types';

/**
 * What a load row reads of one send: the run's verdict and figures (as `buildResult` in result.ts has them), the
 * reason and the error's type scrubbed as every run's result is (runs/index.ts). Only they are made: the rest of
 * a run's result (its warnings, transcript text, headers, end time) was built and then thrown away per request.
 */
export interface RepeatedResult {
  verdict: Verdict;
  reason: string;
  errorType?: string;
  status?: number;
  ttftMs?: number;
  totalMs: number;
  usage: Usage;
}

export interface RepeatedSend {
  /** Stops this request, as Stop stops a run: it ends `cancelled`. */
  cancel(): void;
  /** Never rejects: every failure is a verdict. */
  done: Promise<{ result: RepeatedResult; contentTimes: number[] }>;
}

/** The request as built for one state of its profile. */
interface Built {
  profile: Profile;
  key: string | undefined;
  req: BuiltRequest;
  ledger: Ledger;
}

export class RepeatedRequest {
  private built?: Built;
  private first?: Ledger;

  constructor(
    private readonly profiles: ProfileStore,
    private readonly timeouts: Timeouts,
    private readonly input: z.output<typeof RunStartInput>,
  ) {}

  /** The request as first sent, every secret redacted; undefined before the first send. */
  get ledger(): Ledger | undefined {
    return this.first;
  }

  /**
   * Sends the request once; `onResponse` gets the response headers (scrubbed) when they arrive. Throws RunError
   * when the profile is gone.
   */
  send(onResponse: (headers: Record<string, string>) => void): RepeatedSend {
    const { req, key, ledger } = this.current();
    const timer = new RequestTimer(this.timeouts);
    const contentTimes: number[] = [];
    const t0 = performance.now();
    const ctx: RunContext = {
      runId: ledger.runId,
      protocol: this.input.protocol,
      req,
      ledger,
      key,
      secrets: req.secrets,
      timer,
      timeouts: this.timeouts,
      sink: { push: (u) => void (u.kind === 'response' && onResponse(u.response.headers)) },
      log: new CountingLog(),
      since: () => Math.round((performance.now() - t0) * 100) / 100,
      warnings: [],
      usageOnly: true,
      state: { bytes: 0, contentTimes },
    };
    const done = executeRun(ctx).then((ending) => {
      timer.done();
      const { secrets } = req;
      const { error } = ending;
      const result: RepeatedResult = {
        verdict: ending.verdict,
        reason: scrub(ending.reason, secrets),
        errorType: error === undefined ? undefined : scrub(error.type, secrets),
        status: ctx.state.response?.status,
        ttftMs: ctx.state.ttftMs,
        totalMs: ctx.since(),
        usage: ending.transcript.usage,
      };
      return { result, contentTimes };
    });
    return { cancel: () => timer.cancel(), done };
  }

  /** The request for the profile as it is now: the one built before while nothing it depends on changed. */
  private current(): Built {
    const { profileId, protocol, body } = this.input;
    const profile = this.profiles.get(profileId);
    if (!profile) throw new RunError('not_found', `No profile with id ${profileId}.`);
    const key = this.profiles.keyFor(profile.id);
    const built = this.built;
    if (built && built.key === key && sameProfile(built.profile, profile)) return built;
    const req = buildRequest(profile, key, 'POST', PROTOCOL_INFO[protocol].path, body, {
      stream: body.stream === true,
      secrets: this.profiles.secretsFor(profile.id),
    });
    const ledger = ledgerOf(`run_${randomUUID()}`, this.input, profile, req);
    this.first ??= ledger;
    this.built = { profile, key, req, ledger };
    return this.built;
  }
}

/** Whether two reads of a profile would build the same request (the key is compared apart). */
function sameProfile(a: Profile, b: Profile): boolean {
  return (
    a.name === b.name &&
    a.baseUrl === b.baseUrl &&
    a.authScheme === b.authScheme &&
    sameRecord(a.extraHeaders, b.extraHeaders) &&
    (a.secretHeaders ?? []).join('\n') === (b.secretHeaders ?? []).join('\n')
  );
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
