// The desktop package, checked offline: electron-builder --linux dir against a stub Electron (a placeholder
// executable carrying Electron's fuse wire, so the fuses step runs on it), then the asar and the fuses are
// read back from what was packed. Each finding is a counted check in CI (.tmp/checks-package.json).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, isStale } from './build.mjs';
import { reportChecks } from './check-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const MAX_ASAR_BYTES = 20 * 1024 * 1024;

/** Electron's fuse sentinel, then the wire: version 1, eight fuses, each '0' or '1' ('r' removed). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** The fuses as Electron ships them (node_modules/@electron/fuses/dist/config.d.ts gives the order). */
const SHIPPED_WIRE = '10110001';

const FUSE_NAMES = {
  runAsNode: 'RunAsNode',
  enableCookieEncryption: 'EnableCookieEncryption',
  enableNodeOptionsEnvironmentVariable: 'EnableNodeOptionsEnvironmentVariable',
  enableNodeCliInspectArguments: 'EnableNodeCliInspectArguments',
  enableEmbeddedAsarIntegrityValidation: 'EnableEmbeddedAsarIntegrityValidation',
  onlyLoadAppFromAsar: 'OnlyLoadAppFromAsar',
  loadBrowserProcessSpecificV8Snapshot: 'LoadBrowserProcessSpecificV8Snapshot',
  grantFileProtocolExtraPrivileges: 'GrantFileProtocolExtraPrivileges',
};

export function stubElectron(dir) {
  const wire = Buffer.concat([Buffer.from([1, SHIPPED_WIRE.length]), Buffer.from(SHIPPED_WIRE, 'latin1')]);
  const script = '#!/bin/sh\necho "placeholder Electron for package checks"\nexit 1\n# ';
  const body = Buffer.concat([Buffer.from(script), Buffer.from(SENTINEL), wire, Buffer.from('\n')]);
  writeFileSync(path.join(dir, 'electron'), body, { mode: 0o755 });
}

/** What must not ship, by asar entry path: the check names and the entries that break each. */
export function asarChecks(entries) {
  const present = (p) => entries.includes(p);
  const none = (name, test) => {
    const bad = entries.filter(test);
    return { name, ok: bad.length === 0, detail: bad.length ? bad.slice(0, 5).join(', ') : undefined };
  };
  const needed = [
    '/dist/electron/main.cjs',
    '/dist/electron/preload.cjs',
    '/dist/renderer/index.html',
    '/package.json',
  ];
  const missing = needed.filter((p) => !present(p));
  return [
    {
      name: 'asar holds the app (main, preload, renderer)',
      ok: missing.length === 0,
      detail: missing.join(', ') || undefined,
    },
    none('asar has no source maps', (e) => e.endsWith('.map')),
    none('asar has no TypeScript sources', (e) => /\.(c|m)?tsx?$/.test(e)),
    none('asar has no tests', (e) => /(\.test\.|\.spec\.|\/e2e\/|\/testing\/)/.test(e)),
    none('asar has no browser host', (e) => e.startsWith('/dist/web') || e.includes('/electron/web/')),
    none('asar has no node_modules', (e) => e.includes('/node_modules/')),
  ];
}

/** `electron-fuses read` output → { RunAsNode: 'Enabled', … }. */
export function parseFuses(text) {
  return Object.fromEntries([...text.matchAll(/^\s+(\w+) is (\w+)/gm)].map((m) => [m[1], m[2]]));
}

export function fuseChecks(configured, read) {
  return Object.entries(configured).map(([key, on]) => {
    const name = FUSE_NAMES[key] ?? key;
    const want = on ? 'Enabled' : 'Disabled';
    return {
      name: `fuse ${name} is ${want.toLowerCase()} in the packed binary`,
      ok: read[name] === want,
      detail: `read ${read[name] ?? 'nothing'}`,
    };
  });
}

function packageApp(work) {
  const dist = path.join(work, 'electron-dist');
  mkdirSync(dist, { recursive: true });
  stubElectron(dist);
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const out = path.join(work, 'release');
  const args = [
    '--linux',
    'dir',
    '--x64',
    '--publish',
    'never',
    `-c.electronDist=${dist}`,
    `-c.electronVersion=${electronVersion}`,
    `-c.directories.output=${out}`,
  ];
  const run = spawnSync(process.execPath, [require.resolve('electron-builder/cli.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  const log = `${run.stdout}\n${run.stderr}`;
  return { ok: run.status === 0, log, appDir: path.join(out, 'linux-unpacked') };
}

async function main() {
  if (isStale()) await buildAll({ quiet: true });
  const work = mkdtempSync(path.join(os.tmpdir(), 'gp-package-'));
  const checks = [];
  try {
    const pack = packageApp(work);
    checks.push({
      name: 'electron-builder --linux dir packs the app',
      ok: pack.ok,
      detail: pack.ok ? undefined : pack.log.slice(-2000),
    });
    if (pack.ok) {
      const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
      const asarFile = path.join(pack.appDir, 'resources', 'app.asar');
      const size = statSync(asarFile).size;
      checks.push({
        name: 'asar is at most 20 MB',
        ok: size <= MAX_ASAR_BYTES,
        detail: `${(size / 1048576).toFixed(1)} MB`,
      });
      const { listPackage } = require('@electron/asar');
      checks.push(...asarChecks(listPackage(asarFile, { isPack: false }).map((e) => e.replaceAll('\\', '/'))));
      const exe = path.join(pack.appDir, pkg.name);
      const read = spawnSync(process.execPath, [require.resolve('@electron/fuses/dist/bin.js'), 'read', '--app', exe], {
        encoding: 'utf8',
        env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      });
      checks.push(...fuseChecks(pkg.build.electronFuses, parseFuses(read.stdout)));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.exitCode = reportChecks('package', checks);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
