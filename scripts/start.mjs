// npm start: build when sources changed, make sure the Electron binary is there, open the desktop app. Where
// the binary cannot be had, the same app starts in the browser host instead (its URL printed, and opened when
// there is a desktop to open it on).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, isStale } from './build.mjs';
import { hasDesktop, runWebHost } from './web-host.mjs';
import { ensureElectron, INSTALL_LOG, noElectronSentence, wantsVerbose } from './electron-binary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const verbose = wantsVerbose();
const args = process.argv.slice(2).filter((a) => a !== '--verbose');
// The electron package would download its binary on first require, printing the download's failure (a raw
// stack) to the terminal: the download is made here instead, its output kept in a log (scripts/electron-binary.mjs).
// ELECTRON_OVERRIDE_DIST_PATH names a binary of the user's own: the electron package then downloads nothing.
const override = !!process.env.ELECTRON_OVERRIDE_DIST_PATH;
const found = override
  ? undefined
  : ensureElectron({ electronDir: path.dirname(require.resolve('electron/package.json')), verbose });
let electronPath;
if (override || found?.binary) {
  try {
    electronPath = require('electron');
  } catch {
    electronPath = undefined;
  }
}

if (!electronPath) {
  console.error(noElectronSentence(found?.log ?? INSTALL_LOG, verbose));
  await runWebHost(hasDesktop() ? [] : ['--no-open']);
} else {
  if (isStale()) {
    console.error('Building the app…');
    await buildAll({ quiet: true });
  }
  const child = spawn(electronPath, [path.join(root, 'dist/electron/main.cjs'), ...args], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
}
