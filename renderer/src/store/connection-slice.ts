import type { StateCreator } from 'zustand';
import type { AppError, AppInfo, ModelList, ProfileInput, ProfilesState } from '../../../shared/contract';
import { gateway } from '../bridge';
import type { AppState } from './index';

/** Profiles and model lists as the core last reported them: cached here, persisted only by the core. */
export interface ConnectionSlice {
  appInfo?: AppInfo;
  profiles?: ProfilesState;
  models: Record<string, ModelList | undefined>;
  modelsLoading: Record<string, boolean>;
  hostUp: boolean;
  appStarted(): Promise<void>;
  hostConnectionChanged(up: boolean): void;
  profileSelected(id: string): Promise<AppError | undefined>;
  profileSaved(input: ProfileInput): Promise<AppError | undefined>;
  profileDeleted(id: string): Promise<AppError | undefined>;
  modelsRequested(profileId: string, refresh: boolean): Promise<void>;
}

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set, get) => ({
  models: {},
  modelsLoading: {},
  hostUp: true,

  async appStarted() {
    const [info, profiles] = await Promise.all([gateway.app.info({}), gateway.profiles.list({})]);
    set({ appInfo: info.ok ? info.value : undefined, profiles: profiles.ok ? profiles.value : undefined });
    if (profiles.ok) await get().modelsRequested(profiles.value.activeId, false);
  },

  hostConnectionChanged(up) {
    set({ hostUp: up });
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
    const r = await gateway.profiles.delete({ id });
    if (!r.ok) return r.error;
    set((s) => ({ profiles: r.value, models: { ...s.models, [id]: undefined } }));
    return undefined;
  },

  async modelsRequested(profileId, refresh) {
    set((s) => ({ modelsLoading: { ...s.modelsLoading, [profileId]: true } }));
    const r = await gateway.models.list({ profileId, refresh });
    set((s) => ({
      modelsLoading: { ...s.modelsLoading, [profileId]: false },
      models: r.ok
        ? { ...s.models, [profileId]: r.value }
        : { ...s.models, [profileId]: { profileId, models: [], added: [], removed: [], pages: 0, error: { type: r.error.code, message: r.error.message } } },
    }));
  },
});
