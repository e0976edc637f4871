import type { StateCreator } from 'zustand';
import { DEFAULT_SETTINGS, type AppError, type AppSettings, type Theme } from '../../../shared/contract';
import type { ProtocolId } from '../../../shared/protocols/types';
import { gateway } from '../bridge';
import type { AppState } from './index';

/** The app's settings as the core keeps them (settings:get / settings:update), and what the OS prefers. */
export interface SettingsSlice {
  settings: AppSettings;
  /** The core's settings were read (until then the defaults show). */
  settingsLoaded: boolean;
  /** Why the last settings change could not be saved; the change is not applied then. */
  settingsError?: AppError;
  /** prefers-color-scheme: dark, as the window last reported it. */
  systemDark: boolean;
  settingsRequested(): Promise<void>;
  themeChosen(theme: Theme): Promise<void>;
  systemSchemeChanged(dark: boolean): void;
  bringOfferDismissed(from: ProtocolId, to: ProtocolId): Promise<void>;
  autoRetrySwitched(on: boolean): Promise<void>;
}

/** The theme shown: the one chosen, or the system's. The JSON editor reads this too. */
export const selectEffectiveTheme = (s: Pick<AppState, 'settings' | 'systemDark'>): 'light' | 'dark' =>
  s.settings.theme === 'system' ? (s.systemDark ? 'dark' : 'light') : s.settings.theme;

export const bringPair = (from: ProtocolId, to: ProtocolId) => `${from}>${to}`;

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => {
  /** Saved first, applied once the core has it: a setting that did not stick must not look as if it had. */
  const update = async (patch: Partial<AppSettings>) => {
    const r = await gateway.settings.update(patch);
    set(r.ok ? { settings: r.value, settingsError: undefined } : { settingsError: r.error });
  };
  return {
    settings: DEFAULT_SETTINGS,
    settingsLoaded: false,
    systemDark: true,
    async settingsRequested() {
      const r = await gateway.settings.get({});
      if (!r.ok) return;
      // The tab last open comes back at start, unless the user has already moved on from the first tab.
      const restore = !get().settingsLoaded && get().activeTab === 'messages';
      set({ settings: r.value, settingsLoaded: true, ...(restore ? { activeTab: r.value.lastTab } : {}) });
    },
    themeChosen: (theme) => update({ theme }),
    systemSchemeChanged: (dark) => set({ systemDark: dark }),
    async bringOfferDismissed(from, to) {
      const pair = bringPair(from, to);
      const had = get().settings.bringDismissed;
      if (!had.includes(pair)) await update({ bringDismissed: [...had, pair] });
    },
    autoRetrySwitched: (on) => update({ autoRetry: on }),
  };
};
