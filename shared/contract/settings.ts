/**
 * The app's own settings, kept by the core in `settings.json` in the data folder (never in web storage): the
 * theme, the "Bring the … request here" offers the user dismissed, whether a rate-limited run is retried by
 * itself, and the tab last open.
 */
import { z } from 'zod';
import { defineCall } from './define';
import { TAB_IDS, type TabId } from '../tabs';
import { THEMES, type AppSettings } from './constants';

export { DEFAULT_SETTINGS, THEMES, type AppSettings, type Theme } from './constants';
export { TAB_IDS, type TabId };

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
