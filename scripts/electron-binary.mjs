// Where the Electron binary is, downloading it first when the install script did not run (npm's allowScripts,
// or ELECTRON_SKIP_BINARY_DOWNLOAD). The download's own output (on failure a raw `TypeError: fetch failed`
// stack) goes to a log file, and to the terminal only with --verbose or GATEWAY_PLAYGROUND_VERBOSE=1: the
// user is told in one sentence what happens instead (scripts/start.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The binary the electron package points at, or undefined while it is not on disk. */
export function installedBinary(electronDir) {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/** --verbose on the command line, or GATEWAY_PLAYGROUND_VERBOSE set to anything but 0. */
export function wantsVerbose(argv = process.argv.slice(2), env = process.env) {
  return argv.includes('--verbose') || (!!env.GATEWAY_PLAYGROUND_VERBOSE && env.GATEWAY_PLAYGROUND_VERBOSE !== '0');
}

export const INSTALL_LOG = path.join(os.tmpdir(), 'gateway-playground-electron-install.log');

/**
 * @param {{ electronDir: string, verbose?: boolean, logFile?: string, out?: (text: string) => void }} opts
 * @returns {{ binary: string } | { binary: undefined, log: string }}
 */
export function ensureElectron({
  electronDir,
  verbose = false,
  logFile = INSTALL_LOG,
  out = (t) => process.stderr.write(t),
}) {
  const had = installedBinary(electronDir);
  if (had) return { binary: had };
  const r = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { encoding: 'utf8' });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error.stack) : ''}`;
  writeFileSync(logFile, output);
  if (verbose && output) out(output.endsWith('\n') ? output : `${output}\n`);
  const binary = installedBinary(electronDir);
  return binary ? { binary } : { binary: undefined, log: logFile };
}

/** The one sentence `npm start` prints when the desktop window cannot open. */
export function noElectronSentence(log, verbose) {
  return (
    'The Electron binary could not be installed on this machine (no download possible), so the desktop window ' +
    'cannot open: starting the same app in your browser instead (`npm run web`).' +
    (verbose ? '' : ` Why the download failed: ${log} (or run with --verbose).`)
  );
}
