/**
 * The model picker's data: GET /v1/models for a profile, every page followed, merged by id, cached per
 * profile so the picker opens instantly and a refresh can say what appeared and what went away.
 */
import path from 'node:path';
import { z } from 'zod';
import type { GatewayErrorInfo, ModelInfo, ModelList, StartupProblem } from '../../shared/contract';
import { diffModelIds, mergeModels, readModelsPage } from '../../shared/models';
import { readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';
import {
  buildRequest,
  describeRequestError,
  gatewayRequest,
  safeResponseHeaders,
  urlShown,
  type BuiltRequest,
  type GatewayResponse,
} from './http/request';
import { DEFAULT_TIMEOUTS, RequestTimer, type Timeouts } from './http/timer';
import { readBodyText } from './http/body';
import { scrub, scrubDeep } from './secrets';
import { bodyErrorIn, gatewayErrorOf } from './gateway-errors';
import type { ProfileStore } from './profiles';
import { SIM_DEFAULT_MODEL, SIM_FAULT_MODELS } from './simulator/catalogue';

const MAX_PAGES = 50;

const CachedList = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      family: z.enum(['anthropic', 'openai', 'unknown']),
      displayName: z.string().optional(),
      createdAt: z.string().optional(),
      ownedBy: z.string().optional(),
      extra: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  fetchedAt: z.string(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  pages: z.number(),
});
const CacheFile = z.object({ version: z.literal(1), byProfile: z.record(z.string(), CachedList) });
type Cached = z.infer<typeof CachedList>;

export class ModelsService {
  private cache: Record<string, Cached> = {};
  /** Bumped by forget: a fetch that started before it asked the old connection, so it is not kept. */
  private readonly epochs = new Map<string, number>();
  private readonly file: string;
  /** models-cache.json writes, one after another: the last list fetched is on disk with every other profile's. */
  private readonly queued = writeQueue();

  constructor(
    dataDir: string,
    private readonly profiles: ProfileStore,
    private readonly timeouts: Timeouts = DEFAULT_TIMEOUTS,
  ) {
    this.file = path.join(dataDir, 'models-cache.json');
  }

  async load(): Promise<StartupProblem[]> {
    const read = await readJsonFile(this.file, CacheFile);
    this.cache = read.value?.byProfile ?? {};
    return read.problem ? [read.problem] : [];
  }

  forget(profileId: string): Promise<void> {
    this.epochs.set(profileId, (this.epochs.get(profileId) ?? 0) + 1);
    delete this.cache[profileId];
    return this.persist();
  }

  /** Family of a model as the last list for this profile described it (never guessed from the name). */
  familyOf(profileId: string, modelId: string): ModelInfo['family'] {
    return this.cache[profileId]?.models.find((m) => m.id === modelId)?.family ?? 'unknown';
  }

  /** A model's entry in the last list for this profile, as the gateway gave it. */
  entry(profileId: string, modelId: string): ModelInfo | undefined {
    return this.cache[profileId]?.models.find((m) => m.id === modelId);
  }

  /** The list for a profile, with the Demo gateway's fault models marked and a model to start with. */
  async list(profileId: string, refresh: boolean): Promise<ModelList> {
    const list = await this.fetchOrCached(profileId, refresh);
    const demo = this.profiles.get(profileId)?.builtin === 'demo';
    const models = demo
      ? list.models.map((m) => (SIM_FAULT_MODELS.has(m.id) ? { ...m, fault: true as const } : m))
      : list.models;
    const everyday =
      demo && models.some((m) => m.id === SIM_DEFAULT_MODEL) ? SIM_DEFAULT_MODEL : models.find((m) => !m.fault)?.id;
    return { ...list, models, ...(everyday !== undefined ? { suggested: everyday } : {}) };
  }

  private async fetchOrCached(profileId: string, refresh: boolean): Promise<ModelList> {
    const cached = this.cache[profileId];
    if (cached && !refresh) return { profileId, ...cached };
    const epoch = this.epochs.get(profileId);
    const fetched = await this.fetchAll(profileId);
    if (epoch !== this.epochs.get(profileId)) return this.fetchOrCached(profileId, refresh);
    if ('error' in fetched) {
      return {
        profileId,
        models: cached?.models ?? [],
        fetchedAt: cached?.fetchedAt,
        added: [],
        removed: [],
        pages: cached?.pages ?? 0,
        error: fetched.error,
      };
    }
    const ids = fetched.models.map((m) => m.id);
    const diff = diffModelIds(
      cached?.models.map((m) => m.id),
      ids,
    );
    const next: Cached = { models: fetched.models, fetchedAt: new Date().toISOString(), ...diff, pages: fetched.pages };
    this.cache[profileId] = next;
    // The file only spares a fetch at the next start: a folder that cannot be written must not hide the list
    // the gateway just gave.
    await this.persist().catch(() => undefined);
    return { profileId, ...next };
  }

  private async fetchAll(
    profileId: string,
  ): Promise<{ models: ModelInfo[]; pages: number } | { error: GatewayErrorInfo }> {
    const profile = this.profiles.get(profileId);
    if (!profile) return { error: { type: 'not_found', message: `No profile with id ${profileId}.` } };
    const key = this.profiles.keyFor(profileId);
    const secrets = this.profiles.secretsFor(profileId);
    const pages: ModelInfo[][] = [];
    let afterId: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const req = buildRequest(profile, key, 'GET', '/v1/models', undefined, {
        query: afterId ? { after_id: afterId, limit: '1000' } : undefined,
        secrets,
      });
      const read = await this.fetchPage(req, key);
      // Scrubbed before it is cached or returned: a relay may put the key in a display name (docs/security.md).
      if ('error' in read) return { error: scrubDeep(read.error, req.secrets) };
      pages.push(scrubDeep(read.models, req.secrets));
      if (!read.hasMore || !read.lastId || read.lastId === afterId) break;
      afterId = read.lastId;
    }
    return { models: mergeModels(pages), pages: pages.length };
  }

  /** One page of the list, or why there is none; its text is scrubbed by the caller. */
  private async fetchPage(
    req: BuiltRequest,
    key: string | undefined,
  ): Promise<Exclude<ReturnType<typeof readModelsPage>, { error: string }> | { error: GatewayErrorInfo }> {
    const { secrets } = req;
    const timer = new RequestTimer(this.timeouts);
    let res: GatewayResponse;
    let text: string;
    try {
      res = await gatewayRequest(req, timer.signal);
      timer.activity();
      text = (await readBodyText(res, timer)).text;
    } catch (err) {
      const cause = timer.cause();
      if (cause?.startsWith('timeout')) {
        const s = Math.round((cause === 'timeout-idle' ? this.timeouts.idleMs : this.timeouts.headersMs) / 1000);
        return { error: { type: 'network:timeout', message: `No answer from ${urlShown(req.url)} within ${s} s.` } };
      }
      return { error: describeRequestError(err, secrets, req.proxy) };
    } finally {
      timer.done();
    }
    const headers = safeResponseHeaders(res.headers, secrets, key);
    const clean = scrub(text, secrets);
    if (!res.ok)
      return { error: gatewayErrorOf(secrets, res.status, headers, clean, { requestUrl: urlShown(req.url) }) };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { error: gatewayErrorOf(secrets, res.status, headers, clean, { requestUrl: urlShown(req.url) }) };
    }
    const inBody = bodyErrorIn(secrets, json);
    const rawBody = clean.slice(0, 65536);
    if (inBody)
      return {
        error: {
          status: res.status,
          type: inBody.type ?? 'error',
          code: inBody.code,
          message: inBody.message,
          rawBody,
        },
      };
    const read = readModelsPage(json);
    if ('error' in read)
      return { error: { status: res.status, type: 'invalid_response', message: read.error, rawBody } };
    return read;
  }

  /** Writes the cache as it is when this write's turn comes, so the last write carries every profile's list. */
  private persist(): Promise<void> {
    return this.queued(() => writeJsonAtomic(this.file, { version: 1, byProfile: this.cache }));
  }
}
