import type { StateCreator } from 'zustand';
import type { AppError, CapabilityList, CapabilityProgress, ProbeInput } from '../../../shared/contract';
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
}

export const createCapabilitiesSlice: StateCreator<AppState, [], [], CapabilitiesSlice> = (set, get) => ({
  capabilities: {},
  probeJobs: {},
  async capabilitiesRequested(profileId) {
    const r = await gateway.capabilities.list({ profileId });
    if (r.ok) set((s) => ({ capabilities: { ...s.capabilities, [profileId]: r.value } }));
  },
  async probeRequested(input) {
    const r = await gateway.capabilities.probe(input);
    if (!r.ok) return r.error;
    set((s) => ({
      probeJobs: { ...s.probeJobs, [r.value.jobId]: { jobId: r.value.jobId, profileId: input.profileId, state: 'running', done: 0, total: r.value.total, startedAt: new Date().toISOString() } },
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
});
