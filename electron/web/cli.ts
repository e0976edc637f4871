/**
 * `npm run web`: the same app as a browser host. Prints one line with the URL to open.
 *   --port N          0 = a free port (default)
 *   --data-dir DIR    default $GATEWAY_PLAYGROUND_DATA or ~/.gateway-playground
 *   --no-open         do not open a browser
 *   --persist-keys    keep keys in a 0600 file in the data dir (default: memory only, gone when the host stops)
 */
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLOSE_GRACE_MS, createCore, startupFailureMessage, type Core } from '../core/service';
import { LayeredVault } from '../core/vault';
import { startWebHost } from './server';

interface Args {
  port: number;
  dataDir: string;
  open: boolean;
  persistKeys: boolean;
  idleTimeoutMs?: number;
  headersTimeoutMs?: number;
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Args {
  const args: Args = {
    port: 0,
    dataDir: env.GATEWAY_PLAYGROUND_DATA || path.join(os.homedir(), '.gateway-playground'),
    open: true,
    persistKeys: false,
  };
  const num = (flag: string, v: string | undefined) => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a whole number, got ${v ?? 'nothing'}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') args.port = num(a, argv[++i]);
    else if (a === '--data-dir') {
      const v = argv[++i];
      if (!v) throw new Error('--data-dir needs a folder');
      args.dataDir = path.resolve(v);
    } else if (a === '--no-open') args.open = false;
    else if (a === '--persist-keys') args.persistKeys = true;
    else if (a === '--idle-timeout-ms') args.idleTimeoutMs = num(a, argv[++i]);
    else if (a === '--headers-timeout-ms') args.headersTimeoutMs = num(a, argv[++i]);
    else throw new Error(`Unknown option ${a}. Options: --port N, --data-dir DIR, --no-open, --persist-keys`);
  }
  if (args.port > 65535) throw new Error('--port must be 0–65535');
  return args;
}

function staticDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [process.env.GATEWAY_PLAYGROUND_STATIC, path.join(here, '../renderer'), path.join(here, '../../dist/renderer')];
  const found = candidates.find((c) => c && existsSync(path.join(c, 'index.html')));
  if (!found) throw new Error('The renderer is not built: run `npm run build` first (npm run web does it for you).');
  return found;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const argv = process.platform === 'win32' ? ['/c', 'start', '""', url] : [url];
  try {
    spawn(cmd, argv, { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
  } catch {
    // No browser opener on this machine: the printed URL is enough.
  }
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const vault = new LayeredVault(args.persistKeys ? 'file' : undefined, args.persistKeys ? path.join(args.dataDir, 'keys.json') : undefined);
  let core: Core | undefined;
  let host: Awaited<ReturnType<typeof startWebHost>>;
  try {
    core = await createCore({
      dataDir: args.dataDir,
      host: 'web',
      version: process.env.npm_package_version ?? '0.1.0',
      vault,
      env: { baseUrl: process.env.GATEWAY_BASE_URL, apiKey: process.env.GATEWAY_API_KEY },
      timeouts: { idleMs: args.idleTimeoutMs, headersMs: args.headersTimeoutMs },
    });
    host = await startWebHost({ core, port: args.port, staticDir: staticDir() });
  } catch (err) {
    // One sentence the user can act on: a stack trace says nothing about which folder or option to change.
    console.error(startupFailureMessage(err, 'start with --data-dir set to a folder you can write to (or set GATEWAY_PLAYGROUND_DATA)'));
    await core?.close().catch(() => undefined);
    process.exit(1);
  }
  console.log(`Gateway Playground: ${host.url}`);
  if (args.open) openBrowser(host.url);
  const stop = async () => {
    // A stuck socket must not keep a stopped host alive: exit anyway, but only after the core's own grace for
    // writing stopped runs to history.
    setTimeout(() => process.exit(0), CLOSE_GRACE_MS + 1000).unref();
    await host.close();
    await core?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) void main();
