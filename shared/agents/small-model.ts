/**
 * Claude Code's small fast model when the user picks none (docs/agents.md "Check and Check all"): a small
 * model the key lists — a Haiku-class id first, then another small-tier name — else the main model itself,
 * which is what Claude Code falls back to when its small model is not served.
 */
const HAIKU = /haiku/i;
const SMALL = /(^|[-_.])(mini|small|flash|nano|lite)([-_.]|$)/i;

export function defaultSmallModel(ids: readonly string[], main: string): string {
  return ids.find((id) => HAIKU.test(id)) ?? ids.find((id) => SMALL.test(id)) ?? main;
}
