// npm run web [-- --port N --data-dir DIR --no-open]: build when sources changed, then start the browser host.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, isStale } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (isStale()) {
  console.error('Building the app…');
  await buildAll({ quiet: true });
}
const child = spawn(process.execPath, [path.join(root, 'dist/web/cli.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' });
const forward = (sig) => child.kill(sig);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code) => process.exit(code ?? 0));
