import type { StateCreator } from 'zustand';
import type {
  CallInput,
  CallName,
  CallOutput,
  CollectionRunProgress,
  CollectionsState,
  Result,
} from '../../../shared/contract';
import type { ProtocolId } from '../../../shared/protocols/types';
import { gateway } from '../bridge';
import type { AppState } from './index';

type Answer<K extends CallName> = Promise<Result<CallOutput<K>>>;

/** Collections' folders and variables as the core keeps them, and the collection run this window started. */
export interface CollectionsSlice {
  collections: CollectionsState;
  collectionRun?: CollectionRunProgress;
  /** The folder of the preset each protocol tab's request came from: its variables apply there too. */
  draftFolders: Partial<Record<ProtocolId, string[]>>;
  presetFolderCarried(protocol: ProtocolId, folder: string[]): void;
  collectionsRequested(): Promise<void>;
  collectionFolderSaved(input: CallInput<'collections:save'>): Answer<'collections:save'>;
  collectionFolderRenamed(path: string[], name: string): Answer<'collections:rename'>;
  collectionFolderDeleted(path: string[]): Answer<'collections:delete'>;
  presetMoved(input: CallInput<'collections:move'>): Answer<'collections:move'>;
  profileVariablesSaved(profileId: string, variables: Record<string, string>): Answer<'variables:save'>;
  foreignCollectionImported(text: string): Answer<'collections:import'>;
  collectionRunRequested(input: CallInput<'collections:run'>): Answer<'collections:run'>;
  collectionRunStopRequested(): Promise<void>;
  collectionRunProgressed(p: CollectionRunProgress): void;
}

export const createCollectionsSlice: StateCreator<AppState, [], [], CollectionsSlice> = (set, get) => {
  /** A change answers with the new state; the request list is read again since folders move requests too. */
  const settle = async <T extends Result<CollectionsState>>(r: T): Promise<T> => {
    if (r.ok) set({ collections: r.value });
    await get().presetsRequested();
    return r;
  };
  return {
    collections: { folders: [], profileVariables: {} },
    draftFolders: {},
    presetFolderCarried(protocol, folder) {
      set((s) => ({ draftFolders: { ...s.draftFolders, [protocol]: folder } }));
    },
    async collectionsRequested() {
      const r = await gateway.collections.list({});
      if (r.ok) set({ collections: r.value });
    },
    async collectionFolderSaved(input) {
      return settle(await gateway.collections.save(input));
    },
    async collectionFolderRenamed(path, name) {
      return settle(await gateway.collections.rename({ path, name }));
    },
    async collectionFolderDeleted(path) {
      return settle(await gateway.collections.delete({ path }));
    },
    async presetMoved(input) {
      const r = await gateway.collections.move(input);
      await get().presetsRequested();
      await get().collectionsRequested();
      return r;
    },
    async profileVariablesSaved(profileId, variables) {
      return settle(await gateway.variables.save({ profileId, variables }));
    },
    async foreignCollectionImported(text) {
      const r = await gateway.collections.import({ text });
      await get().presetsRequested();
      await get().collectionsRequested();
      return r;
    },
    async collectionRunRequested(input) {
      const r = await gateway.collections.run(input);
      if (r.ok) set({ collectionRun: undefined });
      return r;
    },
    async collectionRunStopRequested() {
      const run = get().collectionRun;
      if (run) await gateway.collections.stop({ collectionRunId: run.collectionRunId });
    },
    collectionRunProgressed(p) {
      set({ collectionRun: p });
    },
  };
};
