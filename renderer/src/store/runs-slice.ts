import { useEffect } from 'react';
import type { StateCreator } from 'zustand';
import type { AppError, Ledger, RecordedRun, ResponseInfo, RunResult, RunStartInput, RunUpdate } from '../../../shared/contract';
import { createFold } from '../../../shared/protocols';
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
  /** Types seen so far, first-seen order: the Events filter lists them without counting a growing list each frame. */
  live: { events: number; bytes: number; ttftMs?: number; lastT?: number; types: string[] };
}

export interface RunsSlice {
  runs: Record<string, RunView>;
  runStartRequested(input: RunStartInput): Promise<{ runId?: string; error?: AppError }>;
  runCancelRequested(runId: string): Promise<void>;
  runUpdatesReceived(updates: RunUpdate[]): void;
}

/** Live folds, one per streaming run: mutable, so they live outside the store and are dropped at `end`. */
const folds = new Map<string, StreamFold>();

const emptyRun = (runId: string): RunView => ({ runId, status: 'starting', events: [], transcript: { blocks: [], usage: {} }, live: { events: 0, bytes: 0, types: [] } });

/** Applies one batch of pushes; runs the batch does not touch keep their identity (no re-render). */
export function applyUpdates(runs: Record<string, RunView>, updates: RunUpdate[]): Record<string, RunView> {
  const next = { ...runs };
  const touched = new Map<string, { run: RunView; newEvents: RawEvent[] }>();
  const get = (runId: string) => {
    let t = touched.get(runId);
    if (!t) {
      const base = next[runId] ?? emptyRun(runId);
      t = { run: { ...base, live: { ...base.live } }, newEvents: [] };
      touched.set(runId, t);
    }
    return t;
  };
  for (const u of updates) {
    const t = get(u.runId);
    if (u.kind === 'started') {
      t.run.ledger = u.ledger;
      t.run.protocol = u.ledger.protocol;
      folds.set(u.runId, createFold(u.ledger.protocol));
    } else if (u.kind === 'response') {
      t.run.response = u.response;
      if (t.run.status === 'starting') t.run.status = 'streaming';
    } else if (u.kind === 'events') {
      const fold = folds.get(u.runId);
      for (const e of u.events) {
        t.newEvents.push(e);
        t.run.live.bytes += e.size;
        t.run.live.lastT = e.t;
        if (!t.run.live.types.includes(e.type)) t.run.live.types = [...t.run.live.types, e.type];
        if (fold && e.type !== 'comment') {
          const step = fold.push({ event: e.event, data: e.data });
          if (step.content && t.run.live.ttftMs === undefined) t.run.live.ttftMs = e.t;
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
      folds.delete(runId);
    } else if (fold && t.newEvents.length) t.run.transcript = fold.transcript();
    next[runId] = t.run;
  }
  return next;
}

/** A recorded run (history, probe evidence) as the pushes that would have shown it live. */
export function recordedRunUpdates(runId: string, run: RecordedRun): RunUpdate[] {
  const updates: RunUpdate[] = [{ kind: 'started', runId, ledger: run.ledger }];
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
});

/** Events applied per animation frame: with rendering, about half a frame on the 2-core benchmark machine (design.md §9). */
export const EVENTS_PER_FRAME = 1500;

/**
 * Takes what one frame applies from the queue of pushes, in order: everything up to `budget` events, an
 * `events` update split where the budget runs out. A burst of 20k events then lands over several smooth
 * frames instead of one long task; the rest waits for the next frame.
 */
export function takeFrame(queue: RunUpdate[], budget: number = EVENTS_PER_FRAME): { batch: RunUpdate[]; rest: RunUpdate[] } {
  const batch: RunUpdate[] = [];
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
 * frame, at most EVENTS_PER_FRAME events at a time, so a firehose costs one bounded store update (and one
 * render) per frame.
 */
export function useRunUpdates(onUpdates: (updates: RunUpdate[]) => void): void {
  useEffect(() => {
    let queued: RunUpdate[] = [];
    let frame = 0;
    // A hidden window gets no animation frames: fall back to a timer so runs still finish.
    const schedule = () => {
      if (!frame) frame = document.hidden ? window.setTimeout(flush, 50) : requestAnimationFrame(flush);
    };
    const flush = () => {
      frame = 0;
      const { batch, rest } = takeFrame(queued);
      queued = rest;
      if (rest.length) schedule();
      onUpdates(batch);
    };
    const off = gateway.on.runsUpdate((updates) => {
      for (const u of updates) queued.push(u);
      schedule();
    });
    return () => {
      off();
      if (frame) {
        cancelAnimationFrame(frame);
        clearTimeout(frame);
      }
    };
  }, [onUpdates]);
}
