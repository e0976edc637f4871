import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findingChecks } from './electronegativity-check.mjs';

describe('Electronegativity findings', () => {
  it('pass only when the allowlist accepts that check in that file, with a reason for each acceptance', () => {
    const { accepted } = JSON.parse(readFileSync('scripts/electronegativity-allowlist.json', 'utf8')) as {
      accepted: { check: string; file: string; reason: string }[];
    };
    for (const a of accepted) expect(a.reason.length, a.check).toBeGreaterThan(40);
    const checks = findingChecks(
      [
        {
          check: 'OPEN_EXTERNAL_JS_CHECK',
          file: 'electron/main/security.ts',
          line: 32,
          message: 'Review the use of openExternal',
        },
        {
          check: 'OPEN_EXTERNAL_JS_CHECK',
          file: 'electron/main/menu.ts',
          line: 9,
          message: 'Review the use of openExternal',
        },
        {
          check: 'NODE_INTEGRATION_JS_CHECK',
          file: 'electron/main/window.ts',
          line: 20,
          message: 'Disable nodeIntegration',
        },
      ],
      accepted,
    );
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ['electronegativity OPEN_EXTERNAL_JS_CHECK at electron/main/security.ts:32', true],
      ['electronegativity OPEN_EXTERNAL_JS_CHECK at electron/main/menu.ts:9', false],
      ['electronegativity NODE_INTEGRATION_JS_CHECK at electron/main/window.ts:20', false],
    ]);
  });
});
