/**
 * The core: every service behind the contract, host-independent (plain Node, never `electron`). A host gives
 * it a data dir and a key vault, and forwards each call with the receiver that made it; pushes go back to that
 * receiver only.
 */
import { promises as fs } from 'node:fs';
import {
  calls,
  fail,
  MAX_PAYLOAD_BYTES,
  tooLarge,
  ok,
  type AppInfo,
  type CallName,
  type Result,
  type StartupProblem,
} from '../../shared/contract';
import { DEFAULT_TIMEOUTS, type Timeouts } from './http/timer';
import { ModelsService } from './models-service';
import { describeFsError } from './atomic-file';
import type { CoreContext, Handlers, Receiver } from './core-context';
import { ProfileStore } from './profiles';
import { testConnection, testTarget } from './profile-test';
import { draftTarget } from './draft-target';
import { FieldError } from './errors';
import { PushBatcher } from './push-batcher';
import { RunManager, type FinishedRun, type RunSink } from './runs';
import { RunError } from './errors';
import type { KeyVault } from './vault';
import type { Confirmer } from './confirmer';
import { CapabilityStore } from './capability-store';
import { createCapabilityHandlers } from './capability-handlers';
import { createTokenHandlers } from './token-handlers';
import { HistoryStore } from './history-store';
import { CollectionStore } from './collection-store';
import { createCollectionHandlers } from './collection-handlers';
import { PresetStore } from './preset-store';
import { DraftStore } from './draft-store';
import { SettingsStore } from './settings-store';
import { createLibraryHandlers } from './library-handlers';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './simulator';
import { createLoadHandlers } from './load/handlers';
import { createLocustHandlers } from './load/locust-handlers';
import { LoadStore } from './load/load-store';
import { AgentStore } from './agents/store';
import { SavedReplayStore } from './agents/saved-replays';
import { createReplayHandlers } from './agents/replay-handlers';
import { tightenDataDir } from './data-dir-permissions';
import { createAgentHandlers } from './agents/handlers';
import { createAgentSessionHandlers } from './agent-endpoint/handlers';
import { PriceStore } from './pricing/price-store';
import { createPricing } from './pricing/handlers';

export interface CoreOptions {
  dataDir: string;
  host: AppInfo['host'];
  version: string;
  vault: KeyVault;
  env?: { baseUrl?: string; apiKey?: string };
  timeouts?: Partial<Timeouts>;
  /** Use this gateway as the Demo profile instead of starting the embedded simulator (tests). */
  demoGateway?: { baseUrl: string; key: string };
  onRunFinished?: (run: FinishedRun) => void | Promise<void>;
  /**
   * How the host asks the user outside the page (the desktop app's native dialog). Without one nothing can be
   * confirmed: a key never follows a host change and large load runs to a paid gateway are refused.
   */
  confirmer?: Confirmer;
}

export interface Core {
  dispatch(name: string, input: unknown, receiver: Receiver): Promise<Result<unknown>>;
  receiverClosed(receiver: Receiver): void;
  close(): Promise<void>;
  readonly runs: RunManager;
  readonly demoUrl: string;
}

export type { CoreContext, Handlers, Receiver } from './core-context';

/**
 * Start-up could not create or read the data folder (permissions, a read-only disk, a file in the way). Hosts
 * show `sentence()` with their own way to choose another folder, and stop: there is nothing to run without it.
 */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';

  constructor(
    readonly dataDir: string,
    /** What failed, e.g. "could not create /d/history: permission denied, EACCES". */
    readonly detail: string,
  ) {
    super(dataDirSentence(dataDir, detail, 'choose another data folder'));
  }

  sentence(howToChooseAnother: string): string {
    return dataDirSentence(this.dataDir, this.detail, howToChooseAnother);
  }
}

function dataDirSentence(dataDir: string, detail: string, howToChooseAnother: string): string {
  return `Gateway Playground cannot start: the data folder ${dataDir} cannot be used (${detail}); make it writable, or ${howToChooseAnother}.`;
}

const SYSCALL_WORDS: Record<string, string> = {
  mkdir: 'could not create',
  open: 'could not open',
  rename: 'could not rename',
  scandir: 'could not list',
  read: 'could not read',
  stat: 'could not check',
};

/** A file-system error met while opening the data folder, as a DataDirError; anything else is left as it is. */
function asDataDirError(dataDir: string, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException | undefined;
  if (!e?.code || !e.syscall || typeof e.path !== 'string') return err;
  const what = SYSCALL_WORDS[e.syscall] ?? `${e.syscall} failed on`;
  return new DataDirError(dataDir, `${what} ${e.path}: ${describeFsError(err)}`);
}

/** How long closing the core waits for stopped runs to reach history: a host must not exit sooner. */
export const CLOSE_GRACE_MS = 5_000;

/** The one sentence a host shows when the core cannot start: a stack trace says nothing the user can act on. */
export function startupFailureMessage(err: unknown, howToChooseAnother: string): string {
  return err instanceof DataDirError
    ? err.sentence(howToChooseAnother)
    : `Gateway Playground cannot start: ${err instanceof Error ? err.message : String(err)}`;
}

export async function createCore(opts: CoreOptions): Promise<Core> {
  const timeouts: Timeouts = {
    headersMs: opts.timeouts?.headersMs ?? DEFAULT_TIMEOUTS.headersMs,
    idleMs: opts.timeouts?.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
  };
  let simulator: RunningSimulator | undefined;
  let demo = opts.demoGateway;
  if (!demo) {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1' });
    demo = { baseUrl: simulator.url, key: DEMO_KEY };
  }
  const env = opts.env?.baseUrl ? { baseUrl: opts.env.baseUrl, key: opts.env.apiKey } : undefined;
  const problems: StartupProblem[] = [];
  const profiles = new ProfileStore(opts.dataDir, opts.vault, { demo, env }, opts.confirmer);
  const models = new ModelsService(opts.dataDir, profiles, timeouts);
  const capabilityStore = new CapabilityStore(opts.dataDir);
  const agentStore = new AgentStore(opts.dataDir);
  const replayStore = new SavedReplayStore(opts.dataDir);
  const presets = new PresetStore(opts.dataDir, () => profiles.allKeys());
  const collections = new CollectionStore(opts.dataDir, () => profiles.allKeys());
  const history = new HistoryStore(opts.dataDir, problems);
  const drafts = new DraftStore(opts.dataDir, () => profiles.allKeys());
  const settings = new SettingsStore(opts.dataDir);
  const loadStore = new LoadStore(opts.dataDir);
  const priceStore = new PriceStore(opts.dataDir);
  try {
    // Only the user may list or read the data folder: history holds every prompt and answer (docs/security.md).
    await fs.mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
    // A folder an older version made 0755 is tightened before anything is read from it (docs/security.md §8).
    const loose = await tightenDataDir(opts.dataDir);
    if (loose) problems.push(loose);
    for (const store of [
      profiles,
      models,
      capabilityStore,
      presets,
      collections,
      history,
      drafts,
      settings,
      loadStore,
      agentStore,
      priceStore,
      replayStore,
    ]) {
      problems.push(...(await store.load()));
    }
  } catch (err) {
    await simulator?.close();
    throw asDataDirError(opts.dataDir, err);
  }
  const runs = new RunManager(profiles, timeouts);
  runs.onFinished((run) => history.add(run));
  if (opts.onRunFinished) runs.onFinished(opts.onRunFinished);

  const sinks = new WeakMap<Receiver, { batcher: PushBatcher; sink: RunSink }>();
  const sinkFor = (receiver: Receiver): RunSink => {
    let entry = sinks.get(receiver);
    if (!entry) {
      const batcher = new PushBatcher((batch) => receiver.send('runs:update', batch));
      entry = { batcher, sink: { push: (u) => batcher.push(u) } };
      sinks.set(receiver, entry);
    }
    return entry.sink;
  };

  const ctx: CoreContext = {
    dataDir: opts.dataDir,
    timeouts,
    profiles,
    models,
    runs,
    problems,
    sinkFor,
    confirmer: opts.confirmer,
  };
  const capabilities = createCapabilityHandlers(ctx, capabilityStore);
  const load = createLoadHandlers(ctx, loadStore);
  const collectionModule = createCollectionHandlers(ctx, collections, presets);
  const agents = createAgentHandlers(ctx, agentStore, capabilityStore, replayStore);
  const agentSession = createAgentSessionHandlers(ctx);
  const pricing = createPricing(ctx, priceStore);
  const replays = createReplayHandlers(ctx, replayStore, agentSession.tokenOf);

  const handlers: Handlers = {
    'app:info': async () => ({ version: opts.version, host: opts.host, dataDir: opts.dataDir, problems }),
    'profiles:list': async () => profiles.state(),
    'profiles:save': async (input) => {
      const { state, connectionChanged } = await profiles.saveComparing(input);
      // Another gateway, auth or key may serve other models with other abilities: what the old connection
      // proved is no evidence for the new one. A rename changes nothing the gateway sees, so it keeps them.
      if (input.id && connectionChanged) {
        await agentSession.profileChanged(input.id, 'The profile’s connection changed.');
        await capabilities.forgetProfile(input.id);
        await agents.forgetProfile(input.id);
        await models.forget(input.id);
      }
      return state;
    },
    'profiles:delete': async ({ id }) => {
      await agentSession.profileChanged(id, 'The profile was deleted.');
      const state = await profiles.delete(id);
      await capabilities.forgetProfile(id);
      await agents.forgetProfile(id);
      await models.forget(id);
      await priceStore.forget(id);
      return state;
    },
    'profiles:select': async ({ id }) => {
      const state = await profiles.select(id);
      // The endpoint serves the profile it was opened for: another one selected ends it.
      for (const p of state.profiles)
        if (p.id !== id) await agentSession.profileChanged(p.id, 'Another profile was selected.');
      return state;
    },
    'profiles:test': async (input) =>
      'draft' in input
        ? testTarget(draftTarget(profiles, input.draft), timeouts)
        : testConnection(profiles, (profileId) => models.list(profileId, true), input.id, timeouts),
    'models:list': async ({ profileId, refresh }) => {
      if (!profiles.has(profileId)) throw new RunError('not_found', `No profile with id ${profileId}.`);
      return models.list(profileId, refresh);
    },
    'runs:start': async (input, receiver) => ({ runId: runs.start(input, sinkFor(receiver)).runId }),
    'runs:cancel': async ({ runId }, receiver) => {
      const own = sinks.get(receiver)?.sink;
      return { cancelled: own !== undefined && runs.cancel(runId, own) };
    },
    'runs:get': async ({ runId }) => {
      const run = runs.get(runId);
      if (!run) throw new RunError('not_found', `Run ${runId} is no longer in memory.`);
      return run;
    },
    ...capabilities.handlers,
    ...createTokenHandlers(ctx, capabilityStore),
    ...createLibraryHandlers(ctx, presets, history, collections, opts.version),
    ...collectionModule.handlers,
    'drafts:list': async () => ({ drafts: drafts.list() }),
    'drafts:save': async ({ protocol, requests, activeId }) => drafts.save(protocol, requests, activeId),
    'settings:get': async () => settings.get(),
    'settings:update': (patch) => settings.update(patch),
    ...load.handlers,
    ...createLocustHandlers(ctx, loadStore),
    ...agents.handlers,
    ...agentSession.handlers,
    ...pricing.handlers,
    ...replays,
  };

  return {
    runs,
    demoUrl: demo.baseUrl,
    async dispatch(name, input, receiver) {
      if (!Object.hasOwn(calls, name))
        return fail('unknown_call', `There is no call named "${String(name).slice(0, 80)}".`);
      const callName = name as CallName;
      let size: number;
      try {
        // Bytes, as the browser host's frame limit counts them: a CJK payload is three times its length.
        size = Buffer.byteLength(JSON.stringify(input ?? {}));
      } catch {
        return fail('invalid_input', 'The payload is not plain data.');
      }
      if (size > MAX_PAYLOAD_BYTES) {
        return tooLarge(size);
      }
      const parsed = calls[callName].input.safeParse(input ?? {});
      if (!parsed.success) {
        const fields: Record<string, string> = {};
        for (const issue of parsed.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
        const summary = Object.entries(fields)
          .map(([k, v]) => (k === '_' ? v : `${k}: ${v}`))
          .join('; ');
        return fail('invalid_input', `Invalid ${callName} payload: ${summary}`, { fields });
      }
      try {
        const handler = handlers[callName] as (input: unknown, r: Receiver) => Promise<unknown>;
        return ok(await handler(parsed.data, receiver));
      } catch (err) {
        if (err instanceof FieldError) return fail(err.code, err.message, { fields: err.fields });
        if (err instanceof RunError) return fail(err.code, err.message);
        return fail('internal', err instanceof Error ? err.message : String(err));
      }
    },
    receiverClosed(receiver) {
      load.receiverClosed(receiver);
      collectionModule.receiverClosed(receiver);
      agentSession.receiverClosed(receiver);
      const entry = sinks.get(receiver);
      if (!entry) return;
      runs.cancelAllFor(entry.sink);
      entry.batcher.close();
      sinks.delete(receiver);
    },
    async close() {
      agents.cancelAll();
      await agentSession.close();
      await collectionModule.close();
      runs.cancelAll();
      // A run stopped by shutting down keeps its partial output like any other (docs/architecture.md §5):
      // wait for its verdict and its history write, within a bound so a stuck write cannot hold the process forever.
      const bound = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      await Promise.race([Promise.all([runs.settled().then(() => history.settled()), load.close()]), bound]);
      await simulator?.close();
    },
  };
}
