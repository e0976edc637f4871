import type { Check } from './package-check.mjs';

export interface Finding {
  check: string;
  file: string;
  line?: number;
  level?: string;
  message: string;
}
export function findingChecks(
  findings: Finding[],
  accepted: { check: string; file: string; reason: string }[],
): Check[];
