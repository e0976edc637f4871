/**
 * `profiles:test`, the Test connection button: lists the models with the profile as saved, and tries the key
 * under each auth header alone, so the form can say which one the gateway takes. Every message is scrubbed of
 * the profile's secrets before it leaves the core.
 */
import type { AuthAttempt, AuthScheme, ModelList, ProfileTestResult } from '../../shared/contract';
import { readModelsPage } from '../../shared/models';
import { buildRequest, describeRequestError, gatewayRequest, safeResponseHeaders } from './http/request';
import { readBodyText } from './http/body';
import { RequestTimer, type Timeouts } from './http/timer';
import { scrub } from './secrets';
import { bodyErrorIn, gatewayErrorOf } from './gateway-errors';
import type { Profile, ProfileStore } from './profiles';
import { RunError } from './errors';

/** A first page is all a test needs: a gateway that lists thousands of models is cut here, not read whole. */
const PAGE_CAP_BYTES = 1024 * 1024;
const SHOWN_MODELS = 20;

const HEADER_WORDS: Record<AuthAttempt['header'], string> = {
  'x-api-key': 'x-api-key',
  authorization: 'Authorization: Bearer',
  none: 'no key',
};

/** One GET /v1/models (first page) with the profile under `scheme`, timed from the request to the whole body. */
async function attempt(
  profile: Profile,
  key: string | undefined,
  scheme: AuthScheme,
  secrets: readonly string[],
  timeouts: Timeouts,
): Promise<AuthAttempt & { models?: string[] }> {
  const header: AuthAttempt['header'] = !key ? 'none' : scheme === 'x-api-key' ? 'x-api-key' : 'authorization';
  const req = buildRequest({ ...profile, authScheme: scheme }, key, 'GET', '/v1/models', undefined, { secrets });
  const timer = new RequestTimer(timeouts);
  const started = performance.now();
  try {
    const res = await gatewayRequest(req, timer.signal);
    timer.activity();
    const { text } = await readBodyText(res, timer, PAGE_CAP_BYTES);
    const latencyMs = Math.round(performance.now() - started);
    const page = readPage(res.status, text, secrets);
    const problem = 'problem' in page ? page.problem : undefined;
    if (res.ok && 'models' in page) return { header, status: res.status, ok: true, latencyMs, models: page.models };
    const info = gatewayErrorOf(secrets, res.status, safeResponseHeaders(res.headers, secrets, key), text, {
      requestUrl: req.url,
    });
    return { header, status: res.status, ok: false, latencyMs, message: scrub(problem ?? info.message, secrets) };
  } catch (err) {
    const latencyMs = Math.round(performance.now() - started);
    const cause = timer.cause();
    const message = cause?.startsWith('timeout')
      ? `No answer from ${req.url} in time.`
      : describeRequestError(err, secrets, req.proxy).message;
    return { header, ok: false, latencyMs, message: scrub(message, secrets) };
  } finally {
    timer.done();
  }
}

/** Why a 2xx body is not a model list, or the ids it lists; nothing to say for another status. */
function readPage(
  status: number,
  text: string,
  secrets: readonly string[],
): { problem: string } | { models: string[] } | object {
  if (status < 200 || status > 299) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'The answer is not JSON.' };
  }
  const inBody = bodyErrorIn(secrets, json);
  if (inBody) return { problem: inBody.message };
  const read = readModelsPage(json);
  return 'error' in read ? { problem: read.error } : { models: read.models.map((m) => m.id) };
}

/** The schemes to try one by one: each header alone when there is a key, else the profile as it is. */
function schemesToTry(key: string | undefined, own: AuthScheme): AuthScheme[] {
  return key ? ['x-api-key', 'bearer'] : [own];
}

const answered = (a: AuthAttempt) => (a.status ? `HTTP ${a.status}` : 'no answer');

function headline(primary: AuthAttempt, n: number): string {
  if (primary.ok) {
    return `Connected: HTTP ${primary.status} in ${primary.latencyMs} ms, ${n} model${n === 1 ? '' : 's'} listed.`;
  }
  const why = primary.message ? ` (${primary.message})` : '';
  return `Not connected: ${answered(primary)} after ${primary.latencyMs} ms${why}.`;
}

function summarize(primary: AuthAttempt, attempts: AuthAttempt[], modelCount: number): string {
  const head = headline(primary, modelCount);
  if (attempts.length === 1 && attempts[0].header === 'none') {
    return `${head} The profile has no key, so no auth header was sent.`;
  }
  const worked = attempts.filter((a) => a.ok);
  if (!worked.length) return `${head} Neither x-api-key nor Authorization: Bearer was accepted.`;
  const failed = attempts.filter((a) => !a.ok).map((a) => `${HEADER_WORDS[a.header]} got ${answered(a)}`);
  const works = `The key works as ${worked.map((a) => HEADER_WORDS[a.header]).join(' and as ')}`;
  const advice = primary.ok ? '' : ` Set the profile's auth scheme to ${HEADER_WORDS[worked[0].header]} everywhere.`;
  return `${head} ${works}${failed.length ? `; ${failed.join(', ')}` : ''}.${advice}`;
}

/** What a test sends: a profile with its key, and what must never come back out of the core. */
export interface TestTarget {
  profile: Profile;
  key: string | undefined;
  secrets: string[];
}

export async function testConnection(
  profiles: ProfileStore,
  listModels: (profileId: string) => Promise<ModelList>,
  id: string,
  timeouts: Timeouts,
): Promise<ProfileTestResult> {
  const profile = profiles.get(id);
  if (!profile) throw new RunError('not_found', `No profile with id ${id}.`);
  return testTarget({ profile, key: profiles.keyFor(id), secrets: profiles.secretsFor(id) }, timeouts, listModels);
}

/**
 * Tries the target under its own scheme, then the key under each header alone. `listModels`: for a saved
 * profile, the picker's own listing (every page), which the test also refreshes; a form not yet saved has no
 * listing of its own, so its first page stands for it.
 */
export async function testTarget(
  { profile, key, secrets }: TestTarget,
  timeouts: Timeouts,
  listModels?: (profileId: string) => Promise<ModelList>,
): Promise<ProfileTestResult> {
  const primary = await attempt(profile, key, profile.authScheme, secrets, timeouts);
  const attempts: AuthAttempt[] = [];
  for (const scheme of schemesToTry(key, profile.authScheme)) {
    const { models: _page, ...tried } = await attempt(profile, key, scheme, secrets, timeouts);
    attempts.push(tried);
  }
  const { models: page = [], ...first } = primary;
  const list =
    first.ok && listModels
      ? await listModels(profile.id)
      : // The first page comes straight from the gateway: it may echo the key the test sent as a model id.
        { models: page.map((m) => ({ id: scrub(m, secrets) })), error: undefined as ModelList['error'] };
  const ids = list.models.map((m) => m.id);
  return {
    ok: first.ok && !list.error,
    status: first.status,
    latencyMs: first.latencyMs,
    modelCount: ids.length,
    models: ids.slice(0, SHOWN_MODELS),
    attempts,
    summary: summarize(first, attempts, ids.length),
  };
}
