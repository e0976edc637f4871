/** The window's tabs, in the order of the tab list (Ctrl/Cmd+1…9 pick them); kept apart from the contract's
 * schemas so the renderer can read the list without them. */
export const TAB_IDS = [
  'messages',
  'chat',
  'responses',
  'compare',
  'history',
  'presets',
  'capabilities',
  'load',
  'agents',
] as const;
export type TabId = (typeof TAB_IDS)[number];
