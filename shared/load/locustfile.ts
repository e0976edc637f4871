/**
 * "Export as Locust" (docs/load.md "Locust"): a load as a self-contained locustfile.py that sends exactly the
 * request of the load — the protocol's path, the body, the headers the app sends (shared/request-headers.ts) —
 * and reports E2E, TTFT, ITL and TPOT with the app's definitions, following the load's shape. Pure.
 *
 * Nothing of the request is written as Python code: the whole configuration is one JSON text, embedded as a
 * Python string literal of pure ASCII and parsed when the file runs, so a model id or a header value cannot
 * end the literal. The key and every secret header's value are read from environment variables when the file
 * runs; they are never in it (docs/security.md §5).
 */
import type { AuthScheme } from '../auth-schemes';
import { PROTOCOL_INFO, type ProtocolId } from '../protocols/types';
import { requestHeaders, SECRET_HEADER, secretPlaceholder } from '../request-headers';
import { normalizeBaseUrl } from '../url';
import { LOCUST_IMPORTS, LOCUST_SHAPE } from './locust-runtime';
import { LOCUST_REQUEST } from './locust-request';
import type { LoadShape } from './shape';

/** The environment variable the generated file reads the key from. */
export const KEY_ENV = 'GATEWAY_API_KEY';

/** N × C as the form sets it: the one shape with a request count, a rate and a cap of its own. */
export interface FixedLoad {
  requests: number;
  concurrency: number;
  ratePerSec?: number;
  durationCapS?: number;
}

export interface LocustInput {
  baseUrl: string;
  authScheme: AuthScheme;
  /** Whether the profile has a key: then the file refuses to start without it in KEY_ENV. */
  hasKey: boolean;
  extraHeaders: Record<string, string>;
  /** Extra headers marked secret in their profile although their names do not say so. */
  secretHeaders?: readonly string[];
  protocol: ProtocolId;
  body: Record<string, unknown>;
  shape: LoadShape;
  fixed: FixedLoad;
  /** The app's idle timeout (longest silence in a body), in seconds. */
  idleTimeoutS: number;
  /** Where the request came from, for the file's first lines. */
  source: string;
}

/** The environment variable a secret header's value is read from: `x-portkey-virtual-key` → X_PORTKEY_VIRTUAL_KEY. */
export function secretEnvName(header: string): string {
  return secretPlaceholder(header).slice(1, -1);
}

/** Stands for the key while the headers are built; never written out. */
const KEY_MARK = '\u0000key\u0000';

interface Headers {
  headers: Record<string, string>;
  /** [name, prefix, environment variable]: sent as prefix + the variable's value, when it is set. */
  envHeaders: [string, string, string][];
}

function headersOf(input: LocustInput): Headers {
  const marked = new Set(input.secretHeaders?.map((n) => n.toLowerCase()));
  const secret = (name: string) => SECRET_HEADER.test(name) || marked.has(name.toLowerCase());
  const all = requestHeaders({
    path: PROTOCOL_INFO[input.protocol].path,
    authScheme: input.authScheme,
    extraHeaders: input.extraHeaders,
    // The auth headers are written for any profile; without the variable set, none is sent, as without a key.
    key: KEY_MARK,
    stream: input.body.stream === true,
    hasBody: true,
  });
  const out: Headers = { headers: {}, envHeaders: [] };
  for (const [name, value] of Object.entries(all)) {
    // Proxy-Authorization belongs to the proxy (docs/security.md §5): requests takes the proxy, with its
    // credentials, from HTTPS_PROXY as the app does.
    if (name === 'proxy-authorization') continue;
    if (value.includes(KEY_MARK)) out.envHeaders.push([name, value.slice(0, value.indexOf(KEY_MARK)), KEY_ENV]);
    else if (secret(name)) out.envHeaders.push([name, '', secretEnvName(name)]);
    else out.headers[name] = value;
  }
  return out;
}

/**
 * A JSON text as a Python string literal of pure ASCII: every character outside printable ASCII is escaped
 * in the JSON itself (`\uXXXX`, which Python's json joins back into one character even for a surrogate pair),
 * then the text is quoted with JSON's own escapes, each of which Python reads the same way.
 */
export function pythonJsonLiteral(value: unknown): string {
  const json = JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return JSON.stringify(json);
}

function shapeConfig(input: LocustInput): Record<string, unknown> {
  return input.shape.kind === 'fixed' ? { kind: 'fixed', ...input.fixed } : { ...input.shape };
}

/** The configuration the Python reads: everything that differs from one exported load to another. */
export function locustConfig(input: LocustInput): Record<string, unknown> {
  const base = normalizeBaseUrl(input.baseUrl);
  return {
    protocol: input.protocol,
    baseUrl: base.ok ? base.normalized : input.baseUrl,
    path: PROTOCOL_INFO[input.protocol].path,
    ...headersOf(input),
    keyEnv: KEY_ENV,
    keyRequired: input.hasKey,
    idleTimeoutS: input.idleTimeoutS,
    body: input.body,
    shape: shapeConfig(input),
  };
}

function commandLines(input: LocustInput): string[] {
  const secrets = headersOf(input)
    .envHeaders.map(([, , env]) => env)
    .filter((env, k, all) => env !== KEY_ENV && all.indexOf(env) === k);
  const envs = [KEY_ENV, ...secrets].map((e) => `export ${e}=...`);
  return [
    '# Run it with the key in the environment (never in this file):',
    ...envs.map((e) => `#   ${e}`),
    '#   locust -f locustfile.py --headless --csv results',
    '# or as a master and workers, on one machine or several (the key only where workers run):',
    '#   locust -f locustfile.py --headless --master --expect-workers 2 --csv results',
    '#   locust -f locustfile.py --worker --master-host <master address>     (on each worker)',
    '# Then "Import Locust results" in the Load tab reads results_stats.csv (and results_stats_history.csv,',
    "# results_failures.csv) as a run beside the app's own.",
  ];
}

export function locustfile(input: LocustInput): string {
  const source = input.source.replace(/[^\x20-\x7e]/g, '?');
  return [
    '# A load of Gateway Playground as a Locust test (docs/load.md "Locust"): the same request, the same',
    `# shape and the same figures (E2E, TTFT, ITL, TPOT). Request: ${source}, ${input.protocol}.`,
    ...commandLines(input),
    LOCUST_IMPORTS,
    `CONFIG = json.loads(${pythonJsonLiteral(locustConfig(input))})`,
    '',
    LOCUST_SHAPE,
    LOCUST_REQUEST,
  ].join('\n');
}
