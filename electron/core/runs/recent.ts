/**
 * Recently finished runs, oldest first, so evidence and columns can be reopened without history. Bounded by
 * runs, events and bytes: forty 30 MB bodies once took the host from 136 MB to 2.1 GB. Over the event or byte
 * budget, the oldest runs first lose their events and raw body (verdict, metrics, ledger and transcript stay);
 * if that is not enough, or over the run count, the oldest runs go whole. The newest run always stays whole.
 */
import type { EventLog } from '../event-log';
import type { FinishedRun } from './types';

/** A finished run as kept in memory: its events stay in their log until someone asks for them (see EventLog). */
export interface KeptRun {
  run: Omit<FinishedRun, 'events'>;
  log: EventLog | undefined;
}

export interface RecentBudget {
  runs: number;
  events: number;
  bytes: number;
}

export const DEFAULT_RECENT_BUDGET: RecentBudget = { runs: 200, events: 200_000, bytes: 256 * 1024 * 1024 };

/** The note a run gets when its events and body are let go to keep memory within the budget. */
export const DROPPED_NOTE = 'Its events and body were let go to keep memory within bounds; the summary is kept.';

export class RecentRuns {
  private readonly runs = new Map<string, { kept: KeptRun; bytes: number }>();
  private events = 0;
  private bytes = 0;

  constructor(private readonly budget: RecentBudget = DEFAULT_RECENT_BUDGET) {}

  get(runId: string): KeptRun | undefined {
    return this.runs.get(runId)?.kept;
  }

  add(runId: string, kept: KeptRun): void {
    const bytes = weigh(kept);
    this.runs.set(runId, { kept, bytes });
    this.events += kept.log?.length ?? 0;
    this.bytes += bytes;
    this.shed(runId);
  }

  /** What the store holds now, for tests and diagnostics. */
  usage(): { runs: number; events: number; bytes: number } {
    return { runs: this.runs.size, events: this.events, bytes: this.bytes };
  }

  private over(): boolean {
    return this.events > this.budget.events || this.bytes > this.budget.bytes;
  }

  /** Oldest first: bodies and events go before summaries; the newest run always keeps everything. */
  private shed(newest: string): void {
    for (const [id, entry] of this.runs) {
      if (id === newest || !this.over()) break;
      if (entry.kept.log === undefined && entry.kept.run.result.rawBody === undefined) continue;
      this.events -= entry.kept.log?.length ?? 0;
      this.bytes -= entry.bytes;
      entry.kept = lighten(entry.kept);
      entry.bytes = weigh(entry.kept);
      this.bytes += entry.bytes;
    }
    for (const [id, entry] of this.runs) {
      // Runs already light hold no events: only the count and the bytes can still call for a whole run to go.
      if (id === newest || (this.runs.size <= this.budget.runs && this.bytes <= this.budget.bytes)) break;
      this.runs.delete(id);
      this.events -= entry.kept.log?.length ?? 0;
      this.bytes -= entry.bytes;
    }
  }
}

/** The run without its events and raw body: its verdict, metrics, ledger and transcript stay. */
function lighten({ run }: KeptRun): KeptRun {
  const result = { ...run.result, rawBody: undefined, warnings: [...run.result.warnings, DROPPED_NOTE] };
  return { run: { ...run, result }, log: undefined };
}

/** Roughly the bytes a kept run pins: its body as received, its raw body and transcript text (UTF-16). */
function weigh({ run, log }: KeptRun): number {
  let n = (log?.bodyBytes ?? 0) + 2 * (run.result.rawBody?.length ?? 0) + 2 * run.ledger.body.length;
  for (const b of run.result.transcript.blocks)
    n += 2 * ('text' in b && typeof b.text === 'string' ? b.text.length : 0);
  return n + 1024;
}
