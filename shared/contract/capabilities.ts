import { z } from 'zod';
import { defineCall } from './define';
import { ProtocolSchema } from './runs';
import { CAPABILITY_IDS, type CapabilityId, type CapabilityResult, type GuardReport } from '../capabilities';
import { PROTOCOL_IDS, type ProtocolId } from '../protocols/types';

export type { CapabilityId, CapabilityResult, GuardReport } from '../capabilities';

/** A stored result as listed: how old it is, measured by the core's clock. */
export interface CapabilityResultView extends CapabilityResult {
  ageMs: number;
}

export type ProbeJobState = 'running' | 'finished' | 'cancelled';

export interface ProbeJobView {
  jobId: string;
  profileId: string;
  state: ProbeJobState;
  done: number;
  total: number;
  /** Cells waiting for the gateway's retry-after: nothing starts before this ISO time. */
  pausedUntil?: string;
  /** The models this job probes (their rows are busy while it runs; other rows can be probed meanwhile). */
  models?: string[];
  /** Each rate-limited model whose cells wait, and until when (ISO): the job's other models go on meanwhile. */
  waiting?: { model: string; until: string }[];
  startedAt: string;
}

export interface CapabilityList {
  profileId: string;
  results: CapabilityResultView[];
  /** Probe jobs of this profile still running (a reloaded window can show their progress again). */
  jobs: ProbeJobView[];
}

/**
 * Pushed to the window that started the job after each cell, on every rate-limit pause, and once at the end
 * (`state` finished or cancelled).
 */
export interface CapabilityProgress extends ProbeJobView {
  /** The cell that just finished. */
  latest?: CapabilityResult;
}

const ProfileId = z.string().min(1).max(100);
const ModelId = z.string().min(1).max(200);

export const CapabilityIdSchema = z.enum(CAPABILITY_IDS);

export const ProbeInput = z
  .object({
    profileId: ProfileId,
    models: z.array(ModelId).min(1).max(500),
    protocols: z
      .array(ProtocolSchema)
      .min(1)
      .max(3)
      .default([...PROTOCOL_IDS] as ProtocolId[]),
    capabilities: z
      .array(CapabilityIdSchema)
      .min(1)
      .max(CAPABILITY_IDS.length)
      .default([...CAPABILITY_IDS] as CapabilityId[]),
    /**
     * How patient to be with 429s: a cell is retried after the gateway's retry-after while that wait is at most
     * `maxWaitSeconds`, up to `maxAttempts` tries; then it is recorded inconclusive.
     */
    rateLimit: z
      .object({
        maxAttempts: z.number().int().min(1).max(10).default(3),
        maxWaitSeconds: z.number().min(0).max(600).default(60),
      })
      .strict()
      .default({ maxAttempts: 3, maxWaitSeconds: 60 }),
  })
  .strict();
export type ProbeInput = z.input<typeof ProbeInput>;

export const GuardInput = z
  .object({
    profileId: ProfileId,
    model: ModelId,
    /** The target: where the request is being brought. */
    protocol: ProtocolSchema,
    body: z.record(z.string(), z.unknown()),
  })
  .strict();

export const capabilityCalls = {
  'capabilities:list': defineCall<CapabilityList>()(z.object({ profileId: ProfileId }).strict()),
  'capabilities:probe': defineCall<{ jobId: string; total: number }>()(ProbeInput),
  'capabilities:cancel': defineCall<{ cancelled: boolean }>()(z.object({ jobId: z.string().min(1).max(100) }).strict()),
  'capabilities:guard': defineCall<GuardReport>()(GuardInput),
};
