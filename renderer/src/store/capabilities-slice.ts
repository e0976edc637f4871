import type { StateCreator } from 'zustand';
import type {
  AppError,
  CallInput,
  CapabilityList,
  CapabilityProgress,
  GuardReport,
  ProbeInput,
  Result,
} from '../../../shared/contract';
import { gateway } from '../bridge';
import type { AppState } from './index';
import { recordedRunUpdates } from './runs-slice';

/** Probe results as the core stores them (cached here, persisted there), and live job progress. */
export interface CapabilitiesSlice {
  capabilities: Record<string, CapabilityList | undefined>;
  probeJobs: Record<string, CapabilityProgress>;
  capabilitiesRequested(profileId: string): Promise<void>;
  probeRequested(input: ProbeInput): Promise<AppError | undefined>;
  probeProgressReceived(progress: CapabilityProgress): void;
  probeCancelRequested(jobId: string): Promise<void>;
  /** Loads a finished run (probe evidence) into the runs cache so the stream viewer can show it. */
  evidenceRequested(runId: string): Promise<AppError | undefined>;
  /** Which capabilities a request needs and what is known of them on its target. */
  guardRequested(input: CallInput<'capabilities:guard'>): Promise<Result<GuardReport>>;
}

export const createCapabilitiesSlice: StateCreator<AppState, [], [], CapabilitiesSlice> = (set, get) => ({
  capabilities: {},
  probeJobs: {},
  async capabilitiesRequested(profileId) {
    // Jobs known to be running before asking: if the answer no longer lists one, it ended while this window
    // was not told (progress is pushed only to the window that started it).
    const before = Object.values(get().probeJobs).filter((j) => j.profileId === profileId && j.state === 'running');
    const r = await gateway.capabilities.list({ profileId });
    if (!r.ok) return;
    set((s) => {
      const probeJobs = { ...s.probeJobs };
      for (const j of before) {
        const now = probeJobs[j.jobId];
        if (now?.state === 'running' && !r.value.jobs.some((x) => x.jobId === j.jobId))
          probeJobs[j.jobId] = { ...now, state: 'finished' };
      }
      // Running jobs (say, started before a reload) come back with their progress and Cancel; a pushed
      // progress that is further along than this snapshot wins.
      for (const j of r.value.jobs) {
        const known = probeJobs[j.jobId];
        if (!known || (known.state === 'running' && known.done <= j.done)) probeJobs[j.jobId] = j;
      }
      return { capabilities: { ...s.capabilities, [profileId]: r.value }, probeJobs };
    });
  },
  async probeRequested(input) {
    const r = await gateway.capabilities.probe(input);
    if (!r.ok) return r.error;
    set((s) => ({
      probeJobs: {
        ...s.probeJobs,
        [r.value.jobId]: {
          jobId: r.value.jobId,
          profileId: input.profileId,
          state: 'running',
          done: 0,
          total: r.value.total,
          startedAt: new Date().toISOString(),
          models: [...new Set(input.models)],
        },
      },
    }));
    return undefined;
  },
  probeProgressReceived(progress) {
    set((s) => ({ probeJobs: { ...s.probeJobs, [progress.jobId]: progress } }));
    if (progress.latest || progress.state !== 'running') void get().capabilitiesRequested(progress.profileId);
  },
  async probeCancelRequested(jobId) {
    await gateway.capabilities.cancel({ jobId });
  },
  async evidenceRequested(runId) {
    if (get().runs[runId]?.result) return undefined;
    const r = await gateway.runs.get({ runId });
    if (!r.ok) return r.error;
    get().runUpdatesReceived(recordedRunUpdates(runId, r.value));
    return undefined;
  },
  guardRequested: (input) => gateway.capabilities.guard(input),
});
