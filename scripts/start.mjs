// npm start: build when sources changed, make sure the Electron binary is there, open the desktop app. Where
// the binary cannot be had, the same app starts in the browser host instead (its URL printed, and opened when
// there is a desktop to open it on).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, isStale } from './build.mjs';
import { hasDesktop, runWebHost } from './web-host.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

let electronPath;
try {
  // The electron package downloads its binary on first require when the install script did not run
  // (npm's allowScripts, or ELECTRON_SKIP_BINARY_DOWNLOAD); it throws when the download is impossible.
  electronPath = require('electron');
} catch {
  electronPath = undefined;
}

if (!electronPath) {
  console.error(
    'The Electron binary could not be installed on this machine (no download possible), so the desktop window ' +
      'cannot open: starting the same app in your browser instead (`npm run web`).',
  );
  await runWebHost(hasDesktop() ? [] : ['--no-open']);
} else {
  if (isStale()) {
    console.error('Building the app…');
    await buildAll({ quiet: true });
  }
  const child = spawn(electronPath, [path.join(root, 'dist/electron/main.cjs'), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
}
