import { useCallback, useSyncExternalStore } from 'react';

/** One wall clock per period: its last reading, who reads it, and its one interval while anyone does. */
interface Clock {
  now: number;
  readers: Set<() => void>;
  timer?: ReturnType<typeof setInterval>;
}

/** Keyed by period; the periods are a handful of constants in the code, so the map stays small. */
const clocks = new Map<number, Clock>();

function clockFor(periodMs: number): Clock {
  let clock = clocks.get(periodMs);
  if (!clock) {
    clock = { now: Date.now(), readers: new Set() };
    clocks.set(periodMs, clock);
  }
  return clock;
}

function subscribe(periodMs: number, onTick: () => void): () => void {
  const clock = clockFor(periodMs);
  // A reader that joins reads the time afresh (React renders it again if that differs from what it rendered), so
  // a countdown starts from now, not from the shared clock's last tick up to a period ago.
  clock.now = Date.now();
  clock.readers.add(onTick);
  clock.timer ??= setInterval(() => {
    clock.now = Date.now();
    for (const reader of clock.readers) reader();
  }, periodMs);
  return () => {
    clock.readers.delete(onTick);
    if (clock.readers.size > 0 || clock.timer === undefined) return;
    clearInterval(clock.timer);
    clock.timer = undefined;
  };
}

/**
 * The reading, taken again when it is a period old or more (or the system clock went back): a clock nobody read
 * for an hour, or one read just as it starts, is fresh at once, yet two reads within one render agree, as
 * useSyncExternalStore requires of a snapshot.
 */
function read(periodMs: number): number {
  const clock = clockFor(periodMs);
  const now = Date.now();
  if (now - clock.now >= periodMs || now < clock.now) clock.now = now;
  return clock.now;
}

const noSubscription = () => {};

/** When the time shown stops mattering: `on` false (nothing live on screen), or once `until` (ms) has passed. */
export interface NowOptions {
  on?: boolean;
  until?: number;
}

/**
 * The wall-clock time in ms, to within `periodMs`, moving on every `periodMs` while `on` and before `until`.
 * Every reader of one period shares one interval, cleared when the last reader leaves, so ten ages on screen are
 * one timer. Past `until` the value makes one last move to a time at or after it, then stands still.
 */
export function useNow(periodMs: number, { on = true, until = Infinity }: NowOptions = {}): number {
  const subscribeTo = useCallback(
    (onTick: () => void) => {
      if (!on || read(periodMs) >= until) return noSubscription;
      const leave = subscribe(periodMs, () => {
        onTick();
        if (clockFor(periodMs).now >= until) leave();
      });
      return leave;
    },
    [periodMs, on, until],
  );
  const getSnapshot = useCallback(() => read(periodMs), [periodMs]);
  return useSyncExternalStore(subscribeTo, getSnapshot);
}
