/**
 * The load calls. Each load run reports to the window that started it, only that window can stop it, and a
 * window that goes away stops its runs. Its requests are not runs of the core's RunManager (runs/repeated.ts):
 * they go to no history and no window's runs; a load run is saved once, whole, in the load store.
 */
import { LOAD_CONFIRM_ABOVE, type CallName, type LoadRecord } from '../../../shared/contract';
import { summarize } from '../../../shared/load/stats';
import { RepeatedRequest } from '../runs/repeated';
import { nameShown, originShown } from '../confirmer';
import { RunError } from '../errors';
import type { Profile } from '../profiles';
import type { CoreContext, Handlers, Receiver } from '../service';
import { LoadRun, type LoadOutcome } from './engine';
import type { LoadStore } from './load-store';

type LoadCall = Extract<CallName, `load:${string}`>;

export interface LoadModule {
  handlers: Pick<Handlers, LoadCall>;
  receiverClosed(receiver: Receiver): void;
  /** Stops every load run and waits until each is saved. */
  close(): Promise<void>;
}

/** Finished records kept in memory, so a record is there for its window even when saving it failed. */
const KEEP_IN_MEMORY = 4;

/**
 * More than LOAD_CONFIRM_ABOVE requests to a gateway that may bill them: the user says yes outside the page
 * (the desktop app's dialog), since any token holder can send whatever the page sends. A host that cannot ask
 * (the browser host) refuses, and says how to run it (docs/security.md §6).
 */
async function confirmCost(ctx: CoreContext, profile: Profile, requests: number): Promise<void> {
  // The host first: a name is the caller's to choose, the base URL is where the requests go.
  const to = originShown(profile.baseUrl);
  const name = nameShown(profile.name);
  const cost = `${requests} requests to ${to} (“${name}”) may cost money`;
  if (!ctx.confirmer) {
    throw new RunError(
      'confirm_unavailable',
      `Not started: ${cost}, and the browser host cannot ask you outside this page, so it sends at most ` +
        `${LOAD_CONFIRM_ABOVE} requests a run to a gateway other than the Demo gateway. ` +
        `Run ${LOAD_CONFIRM_ABOVE} or fewer, or use the desktop app (npm start), which asks you in its own dialog.`,
    );
  }
  const yes = await ctx.confirmer.confirm({
    title: 'Send a large load run?',
    message: `Send ${requests} requests to ${to}? (profile “${name}”)`,
    detail: `It is not the Demo gateway: every request may cost money.`,
  });
  if (!yes)
    throw new RunError('not_confirmed', `Not started: you did not confirm sending ${requests} requests to ${to}.`);
}

export function createLoadHandlers(ctx: CoreContext, store: LoadStore): LoadModule {
  const live = new Map<string, { run: LoadRun; receiver: Receiver; saved: Promise<void> }>();
  const recent = new Map<string, LoadRecord>();

  const finish = async (run: LoadRun, meta: Omit<LoadRecord, keyof LoadOutcome | 'summary'>, receiver: Receiver) => {
    const outcome = await run.done;
    const record: LoadRecord = { ...meta, ...outcome, summary: summarize(outcome.rows) };
    recent.set(record.loadId, record);
    for (const id of recent.keys()) if (recent.size > KEEP_IN_MEMORY) recent.delete(id);
    try {
      await store.add(record);
    } catch (err) {
      ctx.problems.push({
        file: 'load-runs',
        message: `A load run could not be saved: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
    live.delete(record.loadId);
    receiver.send('load:progress', run.finalProgress());
  };

  const handlers: LoadModule['handlers'] = {
    'load:start': async (input, receiver) => {
      const profile = ctx.profiles.get(input.profileId);
      if (!profile) throw new RunError('not_found', `No profile with id ${input.profileId}.`);
      if (input.requests > LOAD_CONFIRM_ABOVE && profile.builtin !== 'demo')
        await confirmCost(ctx, profile, input.requests);
      const request = new RepeatedRequest(ctx.profiles, ctx.timeouts, {
        profileId: input.profileId,
        protocol: input.protocol,
        body: input.body,
        warnings: [],
        origin: 'composer',
      });
      const run = new LoadRun(request, input, (p) => receiver.send('load:progress', p));
      const model = typeof input.body.model === 'string' ? input.body.model : undefined;
      const meta = {
        loadId: run.loadId,
        startedAt: run.startedAt,
        profileName: profile.name,
        protocol: input.protocol,
        model,
        source: input.source,
        config: {
          requests: input.requests,
          concurrency: input.concurrency,
          ratePerSec: input.ratePerSec,
          durationCapS: input.durationCapS,
          shape: input.shape,
        },
      };
      live.set(run.loadId, { run, receiver, saved: finish(run, meta, receiver) });
      return { loadId: run.loadId };
    },
    'load:stop': async ({ loadId }, receiver) => {
      const entry = live.get(loadId);
      return { stopped: entry !== undefined && entry.receiver === receiver && entry.run.stop() };
    },
    'load:list': async () => ({ runs: store.list() }),
    'load:get': async ({ loadId }) => {
      const record = recent.get(loadId) ?? (await store.get(loadId));
      if (!record) throw new RunError('not_found', `No saved load run ${loadId}.`);
      return record;
    },
    'load:delete': async ({ loadId }) => {
      recent.delete(loadId);
      return { deleted: await store.delete(loadId) };
    },
  };

  return {
    handlers,
    receiverClosed(receiver) {
      for (const entry of live.values()) if (entry.receiver === receiver) entry.run.stop('The window closed');
    },
    async close() {
      const saving = [...live.values()].map((e) => (e.run.stop('The app closed'), e.saved));
      await Promise.allSettled(saving);
    },
  };
}
