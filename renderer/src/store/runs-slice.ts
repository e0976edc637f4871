import { useEffect } from 'react';
import type { StateCreator } from 'zustand';
import type {
  AppError,
  Ledger,
  RecordedRun,
  ResponseInfo,
  RunResult,
  RunStartInput,
  RunUpdate,
} from '../../../shared/contract';
import { createFold } from '../../../shared/protocols';
import { rowsOf } from '../../../shared/protocols/event-columns';
import type { ProtocolId, RawEvent, StreamFold, Transcript } from '../../../shared/protocols/types';
import { gateway } from '../bridge';
import type { AppState } from './index';

export interface RunView {
  runId: string;
  protocol?: ProtocolId;
  status: 'starting' | 'streaming' | 'done';
  ledger?: Ledger;
  response?: ResponseInfo;
  events: RawEvent[];
  transcript: Transcript;
  result?: RunResult;
  /**
   * `types`: each type seen so far and how many of it, first-seen order, counted as events arrive: the Events
   * filter lists them live, and counting 100k events in one go when a run ended held that frame for tens of ms.
   * `content`: once the run has ended, the events the fold found visible content in (not pings, comments, role or
   * usage chunks), for reading how the answer arrived (docs/protocols.md §7.4).
   * `startedAt`: this window's clock (ms) when the run's start reached it, for a live run's elapsed time; a
   * replay starts it afresh, where the ledger's own start is the recording's.
   * `stepped`: a replay moved on by the user, event by event: its time is the recording's, never the wall
   * clock's, which would count the user's pauses between steps as a stall.
   */
  live: {
    events: number;
    bytes: number;
    ttftMs?: number;
    lastT?: number;
    types: TypeCount[];
    content?: RawEvent[];
    startedAt?: number;
    stepped?: boolean;
  };
}

export type TypeCount = [type: string, count: number];

/** A push as the store applies it: its events as rows, turned from the wire's columns as the push arrives. */
export type ViewUpdate =
  | Exclude<RunUpdate, { kind: 'events' | 'started' }>
  | { kind: 'events'; runId: string; events: RawEvent[] }
  | (Extract<RunUpdate, { kind: 'started' }> & { stepped?: boolean });

const viewUpdateOf = (u: RunUpdate): ViewUpdate =>
  u.kind === 'events' ? { kind: 'events', runId: u.runId, events: rowsOf(u.events) } : u;

export interface RunsSlice {
  runs: Record<string, RunView>;
  runStartRequested(input: RunStartInput): Promise<{ runId?: string; error?: AppError }>;
  runCancelRequested(runId: string): Promise<void>;
  runUpdatesReceived(updates: ViewUpdate[]): void;
  /** A view no one will show again (a replay that was stopped or replaced) leaves the store, events and all. */
  runDiscarded(runId: string): void;
}

/** Live folds, one per streaming run: mutable, so they live outside the store and are dropped at `end`. */
const folds = new Map<string, StreamFold>();
/**
 * The events each live fold found content in. Read only once the run has ended (the arrival reading), so they
 * gather here and join the run once, at `end`, instead of a growing array being copied into the store every frame.
 */
const contentEvents = new Map<string, RawEvent[]>();

const emptyRun = (runId: string): RunView => ({
  runId,
  status: 'starting',
  events: [],
  transcript: { blocks: [], usage: {} },
  live: { events: 0, bytes: 0, types: [] },
});

/** Applies one batch of pushes; runs the batch does not touch keep their identity (no re-render). */
export function applyUpdates(runs: Record<string, RunView>, updates: ViewUpdate[]): Record<string, RunView> {
  const next = { ...runs };
  const touched = new Map<string, { run: RunView; newEvents: RawEvent[] }>();
  const get = (runId: string) => {
    let t = touched.get(runId);
    if (!t) {
      const base = next[runId] ?? emptyRun(runId);
      // The counts are copied once per batch and then counted in place: the run's previous view keeps its own.
      t = {
        run: { ...base, live: { ...base.live, types: base.live.types.map(([type, n]): TypeCount => [type, n]) } },
        newEvents: [],
      };
      touched.set(runId, t);
    }
    return t;
  };
  for (const u of updates) {
    const t = get(u.runId);
    if (u.kind === 'started') {
      // A run starts fresh: a recorded run loaded again must not append its events to the first copy.
      t.run = { ...emptyRun(u.runId), ledger: u.ledger, protocol: u.ledger.protocol };
      t.run.live.startedAt = Date.now();
      if (u.stepped) t.run.live.stepped = true;
      t.newEvents = [];
      folds.set(u.runId, createFold(u.ledger.protocol));
      contentEvents.set(u.runId, []);
    } else if (u.kind === 'response') {
      t.run.response = u.response;
      if (t.run.status === 'starting') t.run.status = 'streaming';
    } else if (u.kind === 'events') {
      const fold = folds.get(u.runId);
      const types = t.run.live.types;
      // Events of one type come in runs (a stream of deltas): the last type's counter is checked first.
      let counter: TypeCount | undefined = types.at(-1);
      for (const e of u.events) {
        t.newEvents.push(e);
        t.run.live.bytes += e.size;
        t.run.live.lastT = e.t;
        if (counter?.[0] !== e.type) {
          counter = types.find(([type]) => type === e.type);
          if (!counter) types.push((counter = [e.type, 0]));
        }
        counter[1]++;
        if (fold && e.type !== 'comment') {
          const step = fold.push({ event: e.event, data: e.data });
          if (step.content) {
            if (t.run.live.ttftMs === undefined) t.run.live.ttftMs = e.t;
            contentEvents.get(u.runId)?.push(e);
          }
        }
      }
      t.run.status = 'streaming';
    } else {
      t.run.result = u.result;
      t.run.status = 'done';
    }
  }
  for (const [runId, t] of touched) {
    if (t.newEvents.length) t.run.events = t.run.events.concat(t.newEvents);
    t.run.live.events = t.run.events.length;
    const fold = folds.get(runId);
    if (t.run.result) {
      t.run.transcript = t.run.result.transcript;
      const content = contentEvents.get(runId);
      if (content) t.run.live.content = content;
      contentEvents.delete(runId);
      folds.delete(runId);
    } else if (fold && t.newEvents.length) t.run.transcript = fold.transcript();
    next[runId] = t.run;
  }
  return next;
}

/** A recorded run (history, probe evidence) as the pushes that would have shown it live. */
export function recordedRunUpdates(runId: string, run: RecordedRun): ViewUpdate[] {
  const updates: ViewUpdate[] = [{ kind: 'started', runId, ledger: run.ledger }];
  if (run.response) updates.push({ kind: 'response', runId, response: run.response });
  if (run.events.length) updates.push({ kind: 'events', runId, events: run.events });
  updates.push({ kind: 'end', runId, result: run.result });
  return updates;
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = (set) => ({
  runs: {},
  async runStartRequested(input) {
    const r = await gateway.runs.start(input);
    if (!r.ok) return { error: r.error };
    set((s) => (s.runs[r.value.runId] ? {} : { runs: { ...s.runs, [r.value.runId]: emptyRun(r.value.runId) } }));
    return { runId: r.value.runId };
  },
  async runCancelRequested(runId) {
    await gateway.runs.cancel({ runId });
  },
  runUpdatesReceived(updates) {
    set((s) => ({ runs: applyUpdates(s.runs, updates) }));
  },
  runDiscarded(runId) {
    folds.delete(runId);
    contentEvents.delete(runId);
    set((s) => {
      if (!s.runs[runId]) return {};
      const { [runId]: _gone, ...runs } = s.runs;
      return { runs };
    });
  },
});

/** Events applied in the first busy frame: with rendering, about half a frame on the 2-core benchmark machine. */
export const EVENTS_PER_FRAME = 1500;
const MIN_PER_FRAME = 250;
const MAX_PER_FRAME = 12_000;

/**
 * The next frame's event budget from how long the last busy frame took (rAF to rAF): halved after one that
 * ran past two display frames, grown by a quarter after one that fit in a single frame, kept otherwise. A fast machine
 * keeps up with a firehose; a slow one stays smooth (docs/architecture.md §9: p95 frame gap under 50 ms).
 */
export function nextBudget(budget: number, frameMs: number): number {
  if (frameMs > 40) return Math.max(MIN_PER_FRAME, Math.floor(budget / 2));
  if (frameMs < 20) return Math.min(MAX_PER_FRAME, Math.ceil(budget * 1.25));
  return budget;
}

/**
 * Takes what one frame applies from the queue of pushes, in order: everything up to `budget` events, an
 * `events` update split where the budget runs out. A burst of 20k events then lands over several smooth
 * frames instead of one long task; the rest waits for the next frame.
 */
export function takeFrame(
  queue: ViewUpdate[],
  budget: number = EVENTS_PER_FRAME,
): { batch: ViewUpdate[]; rest: ViewUpdate[] } {
  const batch: ViewUpdate[] = [];
  let left = budget;
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i];
    if (u.kind !== 'events') {
      batch.push(u);
      continue;
    }
    if (left <= 0) return { batch, rest: queue.slice(i) };
    if (u.events.length <= left) {
      batch.push(u);
      left -= u.events.length;
      continue;
    }
    batch.push({ ...u, events: u.events.slice(0, left) });
    return { batch, rest: [{ ...u, events: u.events.slice(left) }, ...queue.slice(i + 1)] };
  }
  return { batch, rest: [] };
}

/**
 * Subscribes the store to run pushes; the app shell calls it once. Pushes are applied once per animation
 * frame, a bounded number of events at a time (see `nextBudget`), so a firehose costs one bounded store
 * update (and one render) per frame.
 */
export function useRunUpdates(onUpdates: (updates: ViewUpdate[]) => void): void {
  useEffect(() => {
    let queued: ViewUpdate[] = [];
    let pending: { kind: 'frame' | 'timer'; id: number } | undefined;
    const schedule = () => {
      if (pending) return;
      // A hidden window gets no animation frames (and slow timers): a timer then applies everything at once.
      pending = document.hidden
        ? { kind: 'timer', id: window.setTimeout(flush, 50) }
        : { kind: 'frame', id: requestAnimationFrame(flush) };
    };
    const cancel = () => {
      if (pending?.kind === 'frame') cancelAnimationFrame(pending.id);
      else if (pending) clearTimeout(pending.id);
      pending = undefined;
    };
    let budget = EVENTS_PER_FRAME;
    let busySince: number | undefined;
    const flush = () => {
      pending = undefined;
      const now = performance.now();
      // Only frames that follow a busy one say how long applying a batch and rendering it took.
      if (busySince !== undefined) budget = nextBudget(budget, now - busySince);
      const { batch, rest } = takeFrame(queued, document.hidden ? Infinity : budget);
      busySince = rest.length ? now : undefined;
      queued = rest;
      if (rest.length) schedule();
      onUpdates(batch);
    };
    // A frame requested just before the window hid would not come until it is shown again.
    const onVisibility = () => {
      if (!pending) return;
      cancel();
      schedule();
    };
    document.addEventListener('visibilitychange', onVisibility);
    const off = gateway.on.runsUpdate((updates) => {
      for (const u of updates) queued.push(viewUpdateOf(u));
      schedule();
    });
    return () => {
      off();
      document.removeEventListener('visibilitychange', onVisibility);
      cancel();
    };
  }, [onUpdates]);
}
