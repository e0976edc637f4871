// Builds the renderer (Vite) and bundles the hosts (esbuild): dist/renderer, dist/web/cli.mjs,
// dist/electron/{main,preload}.cjs. `--if-stale` skips the work when nothing changed since the last build.
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist/.build-stamp');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function isStale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const sources = ['renderer', 'shared', 'electron', 'vite.config.ts', 'package.json'];
  return sources.some((s) => {
    const p = path.join(root, s);
    if (!existsSync(p)) return false;
    return (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs) > built;
  });
}

/**
 * The three esbuild bundles. The desktop main process bundles its dependencies (only `electron` stays out),
 * so the package ships no node_modules; the browser host runs from the install and keeps them external. A
 * sandboxed preload can require only `electron`: everything else is bundled into one file.
 */
export function hostBundles() {
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    absWorkingDir: root,
  };
  return {
    web: {
      ...common,
      entryPoints: ['electron/web/cli.ts'],
      outfile: 'dist/web/cli.mjs',
      format: 'esm',
      packages: 'external',
    },
    main: {
      ...common,
      entryPoints: ['electron/main/main.ts'],
      outfile: 'dist/electron/main.cjs',
      format: 'cjs',
      external: ['electron'],
    },
    preload: {
      ...common,
      entryPoints: ['electron/preload/preload.ts'],
      outfile: 'dist/electron/preload.cjs',
      format: 'cjs',
      external: ['electron'],
    },
  };
}

export async function buildAll({ quiet = false } = {}) {
  await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  await Promise.all(Object.values(hostBundles()).map((options) => esbuild(options)));
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && !isStale()) process.exit(0);
  await buildAll({ quiet: ifStale });
}
