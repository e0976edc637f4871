import type { StateCreator } from 'zustand';
import type {
  AppError,
  AppInfo,
  ModelList,
  ProfileInput,
  ProfilesState,
  ProfileTestResult,
  Result,
} from '../../../shared/contract';
import { PROTOCOL_IDS } from '../../../shared/protocols/types';
import { gateway, onHostConnection, onHostStale } from '../bridge';
import { defaultModel } from '../features/model-picker/default-model';
import type { AppState } from './index';

/** Profiles and model lists as the core last reported them: cached here, persisted only by the core. */
export interface ConnectionSlice {
  appInfo?: AppInfo;
  profiles?: ProfilesState;
  /** Why the last profiles:list failed (the header offers a retry); cleared when a new one starts. */
  profilesError?: AppError;
  models: Record<string, ModelList | undefined>;
  modelsLoading: Record<string, boolean>;
  hostUp: boolean;
  /** The host refused this window's token: it was started again, and only its new address gets in. */
  hostStale: boolean;
  /** windowOpened has asked the core for the first screen's data: it asks once per window. */
  windowOpening: boolean;
  /**
   * The window opened: everything the first screen shows (app info, profiles and models, settings, variables,
   * the kept requests) is asked for at once. main.tsx calls it before React runs and renders once the answers
   * are in (docs/architecture.md §9); App calls it too, for a window made without it.
   */
  windowOpened(): Promise<void>;
  appStarted(): Promise<void>;
  profilesRequested(): Promise<void>;
  /** The window's link to the host went down or came back; coming back fetches again what the drop lost. */
  hostConnectionChanged(up: boolean): void;
  hostLinkStale(): void;
  profileSelected(id: string): Promise<AppError | undefined>;
  profileSaved(input: ProfileInput): Promise<AppError | undefined>;
  profileDeleted(id: string): Promise<AppError | undefined>;
  modelsRequested(profileId: string, refresh: boolean): Promise<void>;
  /**
   * "Test connection" on a saved profile or on the form as typed; a test of a saved profile that listed the
   * models refreshes the Model box's list.
   */
  connectionTestRequested(subject: { id: string } | { draft: ProfileInput }): Promise<Result<ProfileTestResult>>;
}

const lost = (code: string | undefined) => code === 'disconnected';

/**
 * What a dropped link to the host left unanswered, asked again once it is back: without this the Model box
 * stayed at "0 models" and the kept drafts unread until the user thought of ⟳ (docs/architecture.md §2).
 */
async function refetchLost(s: AppState): Promise<void> {
  const models = s.profiles ? s.models[s.profiles.activeId] : undefined;
  const asked: Promise<void>[] = [];
  if (!s.appInfo) asked.push(s.appStarted());
  else if (!s.profiles || lost(s.profilesError?.code)) asked.push(s.profilesRequested());
  else if (lost(models?.error?.type)) asked.push(s.modelsRequested(s.profiles.activeId, false));
  if (!s.settingsLoaded) asked.push(s.settingsRequested());
  if (s.draftsState === 'idle' && s.draftsError) asked.push(s.draftsRequested());
  await Promise.all(asked);
}

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set, get) => ({
  models: {},
  modelsLoading: {},
  hostUp: true,
  hostStale: false,
  windowOpening: false,

  async windowOpened() {
    if (get().windowOpening) return;
    set({ windowOpening: true });
    // Followed before anything is asked: a link that drops during these first calls is seen, and what the drop
    // lost is asked again once it is back. For the window's life, so never unsubscribed.
    onHostStale(() => get().hostLinkStale());
    onHostConnection((up) => get().hostConnectionChanged(up));
    // Variables (collections) apply to every tab's Send, not only once Presets was opened.
    const s = get();
    await Promise.all([s.appStarted(), s.settingsRequested(), s.collectionsRequested(), s.draftsRequested()]);
    // Each tab that names no model gets the built-in profile's one now, as the composer would once rendered: the
    // first render then has it, and Send is enabled in the first frame, not one paint later.
    const now = get();
    const profile = now.profiles?.profiles.find((p) => p.id === now.profiles?.activeId);
    const chosen = defaultModel(profile, profile && now.models[profile.id]);
    if (chosen && now.draftsState === 'ready') PROTOCOL_IDS.forEach((p) => now.composerModelDefaulted(p, chosen));
  },

  async appStarted() {
    await Promise.all([
      gateway.app.info({}).then((info) => set({ appInfo: info.ok ? info.value : undefined })),
      get().profilesRequested(),
    ]);
  },

  async profilesRequested() {
    set({ profilesError: undefined });
    const r = await gateway.profiles.list({});
    if (!r.ok) return set({ profilesError: r.error });
    set({ profiles: r.value });
    await get().modelsRequested(r.value.activeId, false);
  },

  hostConnectionChanged(up) {
    const cameBack = up && !get().hostUp;
    set({ hostUp: up });
    if (cameBack) void refetchLost(get());
  },

  hostLinkStale() {
    set({ hostStale: true, hostUp: false });
  },

  async profileSelected(id) {
    const r = await gateway.profiles.select({ id });
    if (!r.ok) return r.error;
    set({ profiles: r.value });
    await get().modelsRequested(id, false);
    return undefined;
  },

  async profileSaved(input) {
    const r = await gateway.profiles.save(input);
    if (!r.ok) return r.error;
    set({ profiles: r.value });
    await get().modelsRequested(r.value.activeId, true);
    return undefined;
  },

  async profileDeleted(id) {
    const wasActive = get().profiles?.activeId;
    const r = await gateway.profiles.delete({ id });
    if (!r.ok) return r.error;
    set((s) => ({ profiles: r.value, models: { ...s.models, [id]: undefined } }));
    // Deleting the active profile makes another one (Demo) active in the core: the picker needs its models.
    const { activeId } = r.value;
    if (activeId !== wasActive || !get().models[activeId]) await get().modelsRequested(activeId, false);
    return undefined;
  },

  async connectionTestRequested(subject) {
    const r = await gateway.profiles.test(subject);
    if (r.ok && 'id' in subject) void get().modelsRequested(subject.id, false);
    return r;
  },

  async modelsRequested(profileId, refresh) {
    set((s) => ({ modelsLoading: { ...s.modelsLoading, [profileId]: true } }));
    const r = await gateway.models.list({ profileId, refresh });
    set((s) => ({
      modelsLoading: { ...s.modelsLoading, [profileId]: false },
      models: r.ok
        ? { ...s.models, [profileId]: r.value }
        : {
            ...s.models,
            [profileId]: {
              profileId,
              models: [],
              added: [],
              removed: [],
              pages: 0,
              error: { type: r.error.code, message: r.error.message },
            },
          },
    }));
  },
});
