/**
 * The collections calls (docs/collections.md): folders and variables over the collection store, and where a
 * request sits over the preset store.
 */
import { randomUUID } from 'node:crypto';
import { importForeign } from '../../shared/collections/import-foreign';
import { COLLECTION_RUN_LIMITS, type CollectionsState } from '../../shared/contract';
import type { CollectionStore } from './collection-store';
import type { CoreContext, Handlers, Receiver } from './core-context';
import { CollectionRun } from './collection-run';
import type { RunTag } from './runs';
import { RunError } from './errors';
import { startsWith, type PresetStore } from './preset-store';

type CollectionCall =
  | 'collections:list'
  | 'collections:save'
  | 'collections:rename'
  | 'collections:delete'
  | 'collections:move'
  | 'variables:save'
  | 'collections:import'
  | 'collections:run'
  | 'collections:stop';

/** A folder name not yet used at the top level: an import never merges into a folder the user already has. */
function freeFolder(state: CollectionsState, name: string): string {
  const taken = new Set(state.folders.filter((f) => f.path.length === 1).map((f) => f.path[0].toLowerCase()));
  if (!taken.has(name.toLowerCase())) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`.toLowerCase())) return `${name} (${i})`;
}

export interface CollectionsModule {
  handlers: Pick<Handlers, CollectionCall>;
  receiverClosed(receiver: Receiver): void;
  close(): Promise<void>;
}

export function createCollectionHandlers(
  ctx: CoreContext,
  collections: CollectionStore,
  presets: PresetStore,
): CollectionsModule {
  const state = () => collections.list(presets.list().map((p) => p.folder ?? []));
  const live = new Map<string, { run: CollectionRun; receiver: Receiver }>();
  const runHandlers: Pick<Handlers, 'collections:run' | 'collections:stop'> = {
    'collections:run': async ({ profileId, folder, concurrency }, receiver) => {
      const profile = ctx.profiles.get(profileId);
      if (!profile) throw new RunError('not_found', `No profile with id ${profileId}.`);
      const requests = presets.list().filter((p) => startsWith(p.folder ?? [], folder));
      if (!requests.length) throw new RunError('invalid_input', `"${folder.join(' / ')}" holds no requests to run.`);
      if (requests.length > COLLECTION_RUN_LIMITS.requests)
        throw new RunError('invalid_input', `A run sends at most ${COLLECTION_RUN_LIMITS.requests} requests.`);
      const sink = ctx.sinkFor(receiver);
      // History shows the run as one row: "Collection · Smoke · 5 requests" (docs/architecture.md §11).
      const tag: RunTag = {
        source: 'collection',
        check: { id: `coll_${randomUUID()}`, label: `Collection · ${folder.join(' / ')}`, unit: 'request' },
      };
      const run = new CollectionRun(
        requests,
        { folder, profileId, profileName: profile.name, concurrency },
        {
          start: (input) => ctx.runs.start(input, sink, { tag }),
          cancel: (runId) => ctx.runs.cancel(runId, sink),
          scope: (at) => collections.scopeFor(profileId, at),
          onProgress: (p) => receiver.send('collections:progress', p),
        },
      );
      live.set(run.id, { run, receiver });
      void run.done.finally(() => live.delete(run.id));
      return { collectionRunId: run.id };
    },
    'collections:stop': async ({ collectionRunId }, receiver) => {
      const entry = live.get(collectionRunId);
      return { stopped: entry !== undefined && entry.receiver === receiver && entry.run.stop() };
    },
  };
  return {
    receiverClosed(receiver) {
      for (const entry of live.values()) if (entry.receiver === receiver) entry.run.stop();
    },
    async close() {
      const stopping = [...live.values()].map((e) => (e.run.stop(), e.run.done));
      await Promise.allSettled(stopping);
    },
    handlers: {
      ...runHandlers,
      'collections:list': async () => state(),
      'collections:save': async ({ path, variables }) => {
        await collections.saveFolder(path, variables);
        return state();
      },
      'collections:rename': async ({ path, name }) => {
        const sibling = [...path.slice(0, -1), name];
        if (state().folders.some((f) => f.path.join('/') === sibling.join('/')) && name !== path.at(-1))
          throw new RunError('invalid_input', `A folder named "${name}" is already there.`);
        await presets.renameFolder(path, name);
        await collections.renameFolder(path, name);
        return state();
      },
      'collections:delete': async ({ path }) => {
        const inside = presets.countIn(path);
        if (inside)
          throw new RunError(
            'invalid_input',
            `"${path.join(' / ')}" still holds ${inside === 1 ? '1 request' : `${inside} requests`}: move or delete them first.`,
          );
        await collections.deleteFolder(path);
        return state();
      },
      'collections:move': ({ id, folder, before }) => presets.move(id, folder, before),
      'variables:save': async ({ profileId, variables }) => {
        await collections.setProfileVariables(profileId, variables);
        return state();
      },
      'collections:import': async ({ text }) => {
        const read = importForeign(text);
        if ('error' in read) throw new RunError('invalid_input', `${read.error} Nothing was imported.`);
        const top = freeFolder(
          state(),
          read.name
            .replace(/[\p{Cc}/]/gu, ' ')
            .trim()
            .slice(0, 100) || read.format,
        );
        const added = await presets.addMany(
          read.requests.map((r) => ({
            name: r.name.slice(0, 200),
            tags: [],
            protocol: r.protocol,
            model: typeof r.body.model === 'string' ? r.body.model : undefined,
            body: r.body,
            stream: r.body.stream === true,
            folder: [
              top,
              ...r.folder.map(
                (f) =>
                  f
                    .replace(/[\p{Cc}/]/gu, ' ')
                    .trim()
                    .slice(0, 100) || 'Folder',
              ),
            ].slice(0, 6),
          })),
        );
        await collections.mergeFolders([{ path: [top], variables: read.variables }]);
        // Presets carry no headers of their own: the profile's extra headers are where one belongs.
        const headers = read.requests.flatMap((r) =>
          Object.keys(r.headers).map((h) => ({
            name: `${[...r.folder, r.name].join(' / ')}: header ${h}`,
            reason: "requests carry no headers here: add it to the profile's extra headers",
          })),
        );
        return {
          format: read.format,
          folder: [top],
          imported: added.length,
          variables: Object.keys(read.variables).length,
          leftOut: [...read.leftOut, ...headers],
        };
      },
    },
  };
}
