// Runs the browser host (dist/web/cli.mjs) as a child, building first when sources changed; used by
// `npm run web` and by `npm start` where the desktop app cannot open.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, isStale } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A browser can be opened here: always on macOS and Windows; on Linux and the BSDs, only with a display. */
export function hasDesktop(env = process.env, platform = process.platform) {
  return platform === 'darwin' || platform === 'win32' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Starts the browser host with `args` and exits with it; SIGINT and SIGTERM are passed on so it can save runs. */
export async function runWebHost(args) {
  if (isStale()) {
    console.error('Building the app…');
    await buildAll({ quiet: true });
  }
  const child = spawn(process.execPath, [path.join(root, 'dist/web/cli.mjs'), ...args], { stdio: 'inherit' });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}
