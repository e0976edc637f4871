import { describe, expect, it } from 'vitest';
import { getCurrentFuseWire } from '@electron/fuses';
import path from 'node:path';
import { tempDirs } from '../electron/core/testing/temp-dirs';
import { asarChecks, fuseChecks, parseFuses, stubElectron } from './package-check.mjs';

const dirs = tempDirs('gp-package-check-');
const app = ['/package.json', '/dist/electron/main.cjs', '/dist/electron/preload.cjs', '/dist/renderer/index.html'];
const failed = (entries: string[]) =>
  asarChecks(entries)
    .filter((c) => !c.ok)
    .map((c) => c.name);

describe('the package checks', () => {
  it('pass the app alone, and name what should not ship', () => {
    expect(failed(app)).toEqual([]);
    expect(failed([...app, '/dist/electron/main.cjs.map'])).toEqual(['asar has no source maps']);
    expect(failed([...app, '/electron/main/main.ts'])).toEqual(['asar has no TypeScript sources']);
    expect(failed([...app, '/dist/electron/ipc.test.js'])).toEqual(['asar has no tests']);
    expect(failed([...app, '/dist/web/cli.mjs'])).toEqual(['asar has no browser host']);
    expect(failed([...app, '/node_modules/zod/index.js'])).toEqual(['asar has no node_modules']);
    expect(failed(app.slice(1))).toEqual(['asar holds the app (main, preload, renderer)']);
  });

  it('give the stub Electron the fuse wire Electron ships, which @electron/fuses reads', async () => {
    const dir = dirs();
    stubElectron(dir);
    const wire = await getCurrentFuseWire(path.join(dir, 'electron'));
    // RunAsNode and GrantFileProtocolExtraPrivileges on, as shipped: the package step has to turn them off.
    expect(wire).toMatchObject({ version: '1', 0: 49, 1: 48, 7: 49 });
  });

  it('read the fuses back from electron-fuses output and compare them with the configuration', () => {
    const out =
      'Analyzing app: gp\nFuse Version: v1\n  RunAsNode is Disabled\n  GrantFileProtocolExtraPrivileges is Enabled\n';
    const read = parseFuses(out);
    expect(read).toEqual({ RunAsNode: 'Disabled', GrantFileProtocolExtraPrivileges: 'Enabled' });
    const checks = fuseChecks(
      { runAsNode: false, grantFileProtocolExtraPrivileges: false, onlyLoadAppFromAsar: true },
      read,
    );
    expect(checks.map((c) => c.ok)).toEqual([true, false, false]);
  });
});
