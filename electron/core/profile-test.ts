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
): Promise<AuthAttempt> {
  const header: AuthAttempt['header'] = !key ? 'none' : scheme === 'x-api-key' ? 'x-api-key' : 'authorization';
  const req = buildRequest({ ...profile, authScheme: scheme }, key, 'GET', '/v1/models', undefined, { secrets });
  const timer = new RequestTimer(timeouts);
  const started = performance.now();
  try {
    const res = await gatewayRequest(req, timer.signal);
    timer.activity();
    const { text } = await readBodyText(res, timer, PAGE_CAP_BYTES);
    const latencyMs = Math.round(performance.now() - started);
    const problem = pageProblem(res.status, text, secrets);
    if (res.ok && !problem) return { header, status: res.status, ok: true, latencyMs };
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

/** Why a 2xx body is not a model list, or undefined when it is one. */
function pageProblem(status: number, text: string, secrets: readonly string[]): string | undefined {
  if (status < 200 || status > 299) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'The answer is not JSON.';
  }
  const inBody = bodyErrorIn(secrets, json);
  if (inBody) return inBody.message;
  const read = readModelsPage(json);
  return 'error' in read ? read.error : undefined;
}

/** The schemes to try one by one: each header alone when there is a key, else the profile as it is. */
function schemesToTry(key: string | undefined, own: AuthScheme): AuthScheme[] {
  return key ? ['x-api-key', 'bearer'] : [own];
}

const answered = (a: AuthAttempt) => (a.status ? `HTTP ${a.status}` : 'no answer');

function headline(primary: AuthAttempt, list: ModelList): string {
  if (primary.ok) {
    const n = list.models.length;
    return `Connected: HTTP ${primary.status} in ${primary.latencyMs} ms, ${n} model${n === 1 ? '' : 's'} listed.`;
  }
  const why = primary.message ? ` (${primary.message})` : '';
  return `Not connected: ${answered(primary)} after ${primary.latencyMs} ms${why}.`;
}

function summarize(primary: AuthAttempt, attempts: AuthAttempt[], list: ModelList): string {
  const head = headline(primary, list);
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

export async function testConnection(
  profiles: ProfileStore,
  listModels: (profileId: string) => Promise<ModelList>,
  id: string,
  timeouts: Timeouts,
): Promise<ProfileTestResult> {
  const profile = profiles.get(id);
  if (!profile) throw new RunError('not_found', `No profile with id ${id}.`);
  const key = profiles.keyFor(id);
  const secrets = profiles.secretsFor(id);
  const primary = await attempt(profile, key, profile.authScheme, secrets, timeouts);
  const attempts: AuthAttempt[] = [];
  for (const scheme of schemesToTry(key, profile.authScheme))
    attempts.push(await attempt(profile, key, scheme, secrets, timeouts));
  // The picker's own listing, every page: the test also refreshes what the Model box offers.
  const list = primary.ok ? await listModels(id) : { profileId: id, models: [], added: [], removed: [], pages: 0 };
  return {
    ok: primary.ok && !list.error,
    status: primary.status,
    latencyMs: primary.latencyMs,
    modelCount: list.models.length,
    models: list.models.slice(0, SHOWN_MODELS).map((m) => m.id),
    attempts,
    summary: summarize(primary, attempts, list),
  };
}
