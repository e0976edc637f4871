/**
 * Values of the contract the renderer reads at start, apart from the schemas that check them (settings.ts,
 * runs.ts re-export them): a module without zod keeps zod out of the start-up script (docs/architecture.md §9).
 */
import type { TabId } from '../tabs';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

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

/** The most of a non-streamed body a result keeps: a runaway body must not fill the window's memory. */
export const RESULT_BODY_CAP = 2 * 1024 * 1024;
