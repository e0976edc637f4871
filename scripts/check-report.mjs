// A CI stage made of several named checks: each is printed, and all are written to .tmp/checks-<stage>.json,
// where scripts/ci-summary.mjs counts them one by one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** `checks`: { name, ok, detail? }[]. Returns the exit code: 1 when any check failed. */
export function reportChecks(stage, checks, dir = '.tmp') {
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.detail ? ` — ${c.detail}` : ''}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `checks-${stage}.json`), JSON.stringify({ stage, checks }, null, 2));
  return checks.every((c) => c.ok) ? 0 : 1;
}
