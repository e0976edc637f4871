/**
 * `npm run web`: the same app as a browser host. Prints one line with the URL to open.
 *   --port N          0 = a free port (default)
 *   --data-dir DIR    default $GATEWAY_PLAYGROUND_DATA or ~/.gateway-playground
 *   --no-open         do not open a browser
 *   --persist-keys    keep keys in a 0600 file in the data dir (default: memory only, gone when the host stops)
 * Flags are read by node's util.parseArgs, so `--port=8787` works too.
 */
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs as parseFlags } from 'node:util';
import { CLOSE_GRACE_MS, createCore, startupFailureMessage, type Core } from '../core/service';
import { LayeredVault } from '../core/vault';
import { childEnv } from './child-env';
import { startWebHost } from './server';

interface Args {
  port: number;
  dataDir: string;
  open: boolean;
  persistKeys: boolean;
  idleTimeoutMs?: number;
  headersTimeoutMs?: number;
}

const FLAGS = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'no-open': { type: 'boolean' },
  'persist-keys': { type: 'boolean' },
  'idle-timeout-ms': { type: 'string' },
  'headers-timeout-ms': { type: 'string' },
} as const;

const USAGE = 'Options: --port N, --data-dir DIR, --no-open, --persist-keys';

function whole(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < 0)
    throw new Error(`--${flag} needs a whole number, got ${v || 'nothing'}`);
  return n;
}

/** node's parser's complaint as one sentence that says what to type. */
function flagError(err: Error & { code?: string }): Error {
  const flag = /'(--[a-z-]+)/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new Error(`Unknown option ${flag ?? ''}. ${USAGE}`);
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /argument missing/.test(err.message)) {
    return new Error(flag === '--data-dir' ? '--data-dir needs a folder' : `${flag} needs a whole number, got nothing`);
  }
  return new Error(`${err.message.split('. ')[0]}. ${USAGE}`);
}

/** The host's flags, read by node's own parser: `--port 8787` and `--port=8787` alike, anything else refused. */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Args {
  let values: { [K in keyof typeof FLAGS]?: (typeof FLAGS)[K]['type'] extends 'string' ? string : boolean };
  try {
    ({ values } = parseFlags({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw flagError(err as Error & { code?: string });
  }
  if (values['data-dir'] === '') throw new Error('--data-dir needs a folder');
  const port = whole('port', values.port) ?? 0;
  if (port > 65535) throw new Error('--port must be 0–65535');
  return {
    port,
    dataDir: values['data-dir']
      ? path.resolve(values['data-dir'])
      : env.GATEWAY_PLAYGROUND_DATA || path.join(os.homedir(), '.gateway-playground'),
    open: !values['no-open'],
    persistKeys: values['persist-keys'] === true,
    idleTimeoutMs: whole('idle-timeout-ms', values['idle-timeout-ms']),
    headersTimeoutMs: whole('headers-timeout-ms', values['headers-timeout-ms']),
  };
}

function staticDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env.GATEWAY_PLAYGROUND_STATIC,
    path.join(here, '../renderer'),
    path.join(here, '../../dist/renderer'),
  ];
  const found = candidates.find((c) => c && existsSync(path.join(c, 'index.html')));
  if (!found) throw new Error('The renderer is not built: run `npm run build` first (npm run web does it for you).');
  return found;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const argv = process.platform === 'win32' ? ['/c', 'start', '""', url] : [url];
  try {
    // The opener and the browser it starts get no gateway secret from this process's environment.
    spawn(cmd, argv, { stdio: 'ignore', detached: true, env: childEnv(process.env) })
      .on('error', () => {})
      .unref();
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
  const vault = new LayeredVault(
    args.persistKeys ? 'file' : undefined,
    args.persistKeys ? path.join(args.dataDir, 'keys.json') : undefined,
  );
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
    console.error(
      startupFailureMessage(
        err,
        'start with --data-dir set to a folder you can write to (or set GATEWAY_PLAYGROUND_DATA)',
      ),
    );
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
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) void main();
