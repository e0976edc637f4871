/**
 * Replays a recorded run into the stream viewer as a new view: at 1× with its recorded gaps, fast, or one
 * event at a time — so a user can show a colleague exactly how a stream broke. Pure scheduling over the
 * runs slice's own update path; nothing is sent to the gateway.
 */
import type { RecordedRun } from '../../../../shared/contract';
import type { ViewUpdate } from '../../store/runs-slice';

/** About one frame: more updates than the screen can show would only slow the store down. */
const FRAME_MS = 16;

export type ReplayMode = 'realtime' | 'fast' | 'step';

export interface ReplayHandle {
  runId: string;
  /** Step mode: deliver the next event; returns false once the run has ended. */
  next(): boolean;
  /**
   * Stops where it is and ends the view as cancelled, saying how far it got and how the recorded run ended:
   * the partial view stays to read.
   */
  stop(): void;
  /** Stops for good, with no end pushed: the replay's view is being dropped (runDiscarded), not shown ended. */
  discard(): void;
}

export function startReplay(
  run: RecordedRun,
  mode: ReplayMode,
  apply: (updates: ViewUpdate[]) => void,
  replayId: string,
): ReplayHandle {
  const runId = replayId;
  const ledger = { ...run.ledger, runId };
  apply([
    { kind: 'started', runId, ledger, stepped: mode === 'step' },
    ...(run.response ? [{ kind: 'response' as const, runId, response: run.response }] : []),
  ]);
  let i = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startedAt = Date.now();
  const end = () => {
    if (stopped) return;
    stopped = true;
    apply([{ kind: 'end', runId, result: run.result }]);
  };
  const deliver = (count: number) => {
    const batch = run.events.slice(i, i + count);
    i += batch.length;
    if (batch.length) apply([{ kind: 'events', runId, events: batch }]);
    if (i >= run.events.length) end();
  };
  const tick = () => {
    if (stopped) return;
    if (mode === 'fast') {
      deliver(Math.max(50, Math.ceil(run.events.length / 60)));
      if (!stopped) timer = setTimeout(tick, FRAME_MS);
      return;
    }
    // Everything due by the wall clock goes in one update: one tick per recorded timestamp falls far behind
    // on dense streams, as timers cannot fire that often.
    const elapsed = Date.now() - startedAt;
    let n = 0;
    while (i + n < run.events.length && run.events[i + n].t <= elapsed) n++;
    deliver(n);
    if (!stopped) timer = setTimeout(tick, Math.max(FRAME_MS, run.events[i].t - elapsed));
  };
  if (mode !== 'step') timer = setTimeout(tick, mode === 'realtime' ? (run.events[0]?.t ?? 0) : 0);
  if (!run.events.length && mode !== 'step') end();
  return {
    runId,
    next() {
      if (stopped) return false;
      deliver(1);
      return !stopped;
    },
    stop() {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      stopped = true;
      const reason = `Replay stopped after ${i} of ${run.events.length} events; the recorded run ended ${
        run.result.verdict
      }.`;
      apply([{ kind: 'end', runId, result: { ...run.result, verdict: 'cancelled', reason } }]);
    },
    discard() {
      if (timer) clearTimeout(timer);
      stopped = true;
    },
  };
}
