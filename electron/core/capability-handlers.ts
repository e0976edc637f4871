/**
 * The capabilities calls: stored results, probe jobs (background, bounded, cancellable, progress pushed to
 * the window that asked), and the protocol-switch guard. Probes run as ordinary runs through the core's
 * RunManager, so each one has a ledger and evidence like any other request.
 */
import { randomUUID } from 'node:crypto';
import type { CallName } from '../../shared/contract';
import { capabilityApplies, guardReport, requiredCapabilities, type CapabilityResult } from '../../shared/capabilities';
import type { CapabilityStore } from './capability-store';
import { RunError } from './errors';
import type { CoreContext, Handlers } from './core-context';
import { runProbe } from './probes';
import type { RunTag } from './runs';
import { Limiter, pauseKey, ProbeJob, type ProbeCell } from './probes/jobs';
import { secretsOfProfile } from './http/request';
import { scrubDeep } from './secrets';

type CapabilityCall = Extract<CallName, `capabilities:${string}`>;
export type CapabilityHandlers = Pick<Handlers, CapabilityCall>;

export interface CapabilityModule {
  handlers: CapabilityHandlers;
  /**
   * Drops everything learnt about a profile's gateway: its jobs (cancelled, so no result still in flight
   * lands after), its rate-limit pauses and its stored results.
   */
  forgetProfile(profileId: string): Promise<void>;
}

/** Probes in flight at once across every job (the bound). */
export const PROBE_CONCURRENCY = 2;

export function createCapabilityHandlers(ctx: CoreContext, store: CapabilityStore): CapabilityModule {
  const profileSecrets = (pid: string): string[] => {
    const p = ctx.profiles.get(pid);
    return p ? secretsOfProfile(p, ctx.profiles.secretsFor(pid)) : [];
  };
  const limiter = new Limiter(PROBE_CONCURRENCY);
  const jobs = new Map<string, ProbeJob>();
  /** profile × model → epoch ms before which no probe is sent (the gateway's retry-after). */
  const pauses = new Map<string, number>();
  const deps = { runs: ctx.runs, profiles: ctx.profiles, timeouts: ctx.timeouts };

  const requireProfile = (profileId: string) => {
    if (!ctx.profiles.has(profileId)) throw new RunError('not_found', `No profile with id ${profileId}.`);
  };

  const forgetProfile = async (profileId: string) => {
    for (const job of jobs.values()) if (job.profileId === profileId) job.cancel();
    const prefix = pauseKey(profileId, '');
    for (const key of [...pauses.keys()]) if (key.startsWith(prefix)) pauses.delete(key);
    await store.forget(profileId);
  };

  const handlers: CapabilityHandlers = {
    'capabilities:list': async ({ profileId }) => {
      requireProfile(profileId);
      const now = Date.now();
      return {
        profileId,
        results: store.list(profileId).map((r) => ({ ...r, ageMs: Math.max(0, now - Date.parse(r.at)) })),
        jobs: [...jobs.values()].filter((j) => j.profileId === profileId && j.state === 'running').map((j) => j.view()),
      };
    },

    'capabilities:probe': async ({ profileId, models, protocols, capabilities, rateLimit }, receiver) => {
      requireProfile(profileId);
      const cells: ProbeCell[] = [];
      const seen = new Set<string>();
      for (const model of models) {
        for (const protocol of protocols) {
          for (const capability of capabilities) {
            const key = `${model}\u0000${protocol}\u0000${capability}`;
            if (seen.has(key) || !capabilityApplies(protocol, capability)) continue;
            seen.add(key);
            cells.push({ model, protocol, capability });
          }
        }
      }
      if (cells.length === 0) {
        throw new RunError(
          'invalid_input',
          'None of the chosen capabilities exists on the chosen protocols (token counting is Messages only, background Responses only).',
        );
      }
      // One History row per model of this job: "Capabilities · <model> · 12 probes".
      const checkId = `caps_${randomUUID()}`;
      const tag = (model: string): RunTag => ({
        source: 'capabilities',
        check: { id: `${checkId}:${model}`, label: `Capabilities · ${model}`, unit: 'probe' },
      });
      const job = new ProbeJob(profileId, cells, {
        limiter,
        pauses,
        workers: PROBE_CONCURRENCY,
        policy: { maxAttempts: rateLimit.maxAttempts, maxWaitMs: rateLimit.maxWaitSeconds * 1000 },
        runCell: (pid, cell, signal, attempt) =>
          runProbe(deps, { profileId: pid, ...cell }, signal, { attempt, tag: tag(cell.model) }),
        // Evidence quotes answers: scrubbed before capabilities.json, like every text that leaves the core.
        record: (pid, result: CapabilityResult) => store.put(pid, scrubDeep(result, profileSecrets(pid))),
        progress: (p) => receiver.send('capabilities:progress', scrubDeep(p, profileSecrets(profileId))),
      });
      jobs.set(job.jobId, job);
      job.start();
      void job.finished.finally(() => jobs.delete(job.jobId));
      return { jobId: job.jobId, total: job.total };
    },

    'capabilities:cancel': async ({ jobId }) => ({ cancelled: jobs.get(jobId)?.cancel() ?? false }),

    'capabilities:guard': async ({ profileId, model, protocol, body }) => {
      requireProfile(profileId);
      return guardReport(
        { model, protocol },
        requiredCapabilities(protocol, body),
        store.forTarget(profileId, model, protocol),
      );
    },
  };
  return { handlers, forgetProfile };
}
