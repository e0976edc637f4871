/** What the pieces of a run share while it is read (see runs/execute.ts). */
import type { GatewayErrorInfo, Ledger, RecordedRun, ResponseInfo, RunUpdate } from '../../../shared/contract';
import type { Transcript, Verdict } from '../../../shared/protocols/types';
import type { RunLog } from '../event-log';
import type { BuiltRequest, GatewayResponse } from '../http/request';
import type { RequestSignal } from '../http/timer';
import type { RequestTimer, Timeouts } from '../http/timer';

export interface RunSink {
  push(update: RunUpdate): void;
}

export type FinishedRun = RecordedRun;

/** How a run ended, before metrics and the ledger are added: what every reader of a body returns. */
export interface Ending {
  verdict: Verdict;
  reason: string;
  transcript: Transcript;
  error?: GatewayErrorInfo;
  rawBody?: string;
}

/** One run while it is being read. */
export interface RunContext {
  runId: string;
  protocol: Ledger['protocol'];
  req: BuiltRequest;
  ledger: Ledger;
  key: string | undefined;
  secrets: string[];
  timer: RequestTimer;
  timeouts: Timeouts;
  sink: RunSink;
  log: RunLog;
  /** Milliseconds since the request was sent. */
  since(): number;
  warnings: string[];
  /**
   * The ending's transcript carries the usage alone (no blocks copied out of the fold): set by a load run,
   * whose rows read nothing else (runs/repeated.ts).
   */
  usageOnly?: boolean;
  /**
   * Sends the request in place of the plain gateway request: the agent endpoint tees the answer to the agent
   * as it arrives (electron/core/agent-endpoint).
   */
  send?: (req: BuiltRequest, signal: RequestSignal) => Promise<GatewayResponse>;
  /** Filled in as the answer arrives. */
  state: {
    response?: ResponseInfo;
    bytes: number;
    ttftMs?: number;
    partial?: () => Transcript;
    /** When present, the arrival time of every event carrying content is added (a load row's ITL samples). */
    contentTimes?: number[];
  };
}

export const EMPTY_TRANSCRIPT: Transcript = { blocks: [], usage: {} };
