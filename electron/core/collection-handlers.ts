/**
 * The collections calls (docs/collections.md): folders and variables over the collection store, and where a
 * request sits over the preset store.
 */
import { importForeign } from '../../shared/collections/import-foreign';
import type { CollectionsState } from '../../shared/contract';
import type { CollectionStore } from './collection-store';
import type { Handlers } from './core-context';
import { RunError } from './errors';
import type { PresetStore } from './preset-store';

type CollectionCall =
  | 'collections:list'
  | 'collections:save'
  | 'collections:rename'
  | 'collections:delete'
  | 'collections:move'
  | 'variables:save'
  | 'collections:import';

/** A folder name not yet used at the top level: an import never merges into a folder the user already has. */
function freeFolder(state: CollectionsState, name: string): string {
  const taken = new Set(state.folders.filter((f) => f.path.length === 1).map((f) => f.path[0].toLowerCase()));
  if (!taken.has(name.toLowerCase())) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`.toLowerCase())) return `${name} (${i})`;
}

export function createCollectionHandlers(
  collections: CollectionStore,
  presets: PresetStore,
): Pick<Handlers, CollectionCall> {
  const state = () => collections.list(presets.list().map((p) => p.folder ?? []));
  return {
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
  };
}
