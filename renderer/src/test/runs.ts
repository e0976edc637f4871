import type { Transcript } from '../../../shared/protocols/types';
import type { RunView } from '../store/runs-slice';

/** A run the core reported complete with this transcript, as the store holds it. */
export function completedRun(runId: string, transcript: Transcript): RunView {
  return {
    runId,
    status: 'done',
    events: [],
    transcript,
    live: { events: 0, bytes: 0, types: [] },
    result: {
      verdict: 'complete',
      reason: 'done',
      metrics: { totalMs: 1, events: 0, bytes: 0, usage: {} },
      transcript,
      warnings: [],
      endedAt: new Date().toISOString(),
    },
  };
}
