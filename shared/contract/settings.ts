/**
 * The app's own settings, kept by the core in `settings.json` in the data folder (never in web storage): the
 * theme, the "Bring the … request here" offers the user dismissed, whether a rate-limited run is retried by
 * itself, and the tab last open.
 */
import { z } from 'zod';
import { defineCall } from './define';
import { TAB_IDS, type TabId } from '../tabs';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export { TAB_IDS, type TabId };

export interface AppSettings {
  /** "system" follows the OS (prefers-color-scheme). */
  theme: Theme;
  /** Tab pairs whose "Bring the … request here" offer was dismissed, as "from>to" (e.g. "messages>chat"). */
  bringDismissed: string[];
  /** Retry a 429 or 529 once its retry-after has passed, without a click. Off unless switched on. */
  autoRetry: boolean;
  /** The tab open when the window was last used: the next start opens on it. */
  lastTab: TabId;
}

export const DEFAULT_SETTINGS: AppSettings = {
  theme: 'system',
  bringDismissed: [],
  autoRetry: false,
  lastTab: 'messages',
};

const Pair = z.string().regex(/^(messages|chat|responses)>(messages|chat|responses)$/);

export const AppSettingsSchema = z.object({
  theme: z.enum(THEMES),
  bringDismissed: z.array(Pair).max(9),
  autoRetry: z.boolean(),
  lastTab: z.enum(TAB_IDS),
});

export const settingsCalls = {
  'settings:get': defineCall<AppSettings>()(z.object({}).strict()),
  /** Changes only the fields given; returns the settings as saved. */
  'settings:update': defineCall<AppSettings>()(AppSettingsSchema.partial().strict()),
};
