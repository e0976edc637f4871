/**
 * Recently finished runs, oldest first, so evidence and columns can be reopened without history. Bounded by
 * events as well as runs: a few 20k-event firehoses would otherwise pin hundreds of MB.
 */
import type { EventLog } from '../event-log';
import type { FinishedRun } from './types';

/** A finished run as kept in memory: its events stay in their log until someone asks for them (see EventLog). */
export interface KeptRun {
  run: Omit<FinishedRun, 'events'>;
  log: EventLog;
}

export interface RecentBudget {
  runs: number;
  events: number;
}

export const DEFAULT_RECENT_BUDGET: RecentBudget = { runs: 200, events: 200_000 };

export class RecentRuns {
  private readonly runs = new Map<string, KeptRun>();
  private events = 0;

  constructor(private readonly budget: RecentBudget = DEFAULT_RECENT_BUDGET) {}

  get(runId: string): KeptRun | undefined {
    return this.runs.get(runId);
  }

  add(runId: string, kept: KeptRun): void {
    this.runs.set(runId, kept);
    this.events += kept.log.length;
    for (const [id, old] of this.runs) {
      if (id === runId) break;
      if (this.runs.size <= this.budget.runs && this.events <= this.budget.events) break;
      this.runs.delete(id);
      this.events -= old.log.length;
    }
  }
}
