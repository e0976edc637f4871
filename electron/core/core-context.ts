/** What the core's feature modules share with service.ts: the receiver of pushes, the handler table, the context. */
import type { CallName, CallOutput, CallParsed, PushName, Pushes, StartupProblem } from '../../shared/contract';
import type { Timeouts } from './http/timer';
import type { ModelsService } from './models-service';
import type { ProfileStore } from './profiles';
import type { RunManager, RunSink } from './runs';
import type { Confirmer } from './confirmer';

/** A window (Electron) or a WebSocket (browser host): where a call came from and where its pushes go. */
export interface Receiver {
  send<P extends PushName>(name: P, payload: Pushes[P]): void;
}

export type Handlers = { [K in CallName]: (input: CallParsed<K>, receiver: Receiver) => Promise<CallOutput<K>> };

/** What a feature module of the core gets to build its handlers from. */
export interface CoreContext {
  dataDir: string;
  timeouts: Timeouts;
  profiles: ProfileStore;
  models: ModelsService;
  runs: RunManager;
  /** Problems found at start-up (corrupt files moved aside); modules append their own. */
  problems: StartupProblem[];
  /** How the host asks the user outside the page; absent where it cannot (the browser host). */
  confirmer?: Confirmer;
  /** The push sink of a receiver (a window or a tab): runs started for it report there. */
  sinkFor(receiver: Receiver): RunSink;
}
