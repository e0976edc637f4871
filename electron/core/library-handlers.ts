/**
 * The library calls: presets, history, export as code and import from curl, over their stores.
 */
import type { RecordedRun } from '../../shared/contract';
import { exportCode, exportInputFromLedger } from '../../shared/code-export';
import { PROTOCOL_INFO } from '../../shared/protocols/types';
import { parseCurl } from '../../shared/curl-parse';
import type { HistoryStore } from './history-store';
import { exportRuns } from './history-export';
import { secretsOfProfile } from './http/request';
import type { PresetStore } from './preset-store';
import type { CollectionStore } from './collection-store';
import { FieldError } from './errors';
import { RunError } from './errors';
import type { CoreContext, Handlers } from './core-context';

type LibraryCall =
  | 'presets:list'
  | 'presets:save'
  | 'presets:rename'
  | 'presets:duplicate'
  | 'presets:delete'
  | 'presets:restore'
  | 'presets:export'
  | 'presets:import'
  | 'history:list'
  | 'history:get'
  | 'history:delete'
  | 'history:clear'
  | 'history:settings'
  | 'history:rename'
  | 'history:pin'
  | 'history:export'
  | 'history:code'
  | 'export:code'
  | 'import:curl';

const invalid = (err: unknown) => new RunError('invalid_input', err instanceof Error ? err.message : String(err));

export function createLibraryHandlers(
  ctx: CoreContext,
  presets: PresetStore,
  history: HistoryStore,
  collections: CollectionStore,
  version = '0',
): Pick<Handlers, LibraryCall> {
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      // A store's own coded errors (unwritable, not_found) say more than "invalid input", and a field error
      // must keep its field so the form can show it in place.
      if (err instanceof RunError || err instanceof FieldError) throw err;
      throw invalid(err);
    }
  };
  const recorded = async (runId: string) => {
    await history.settled();
    const run = await history.get(runId).catch((err: unknown) => {
      throw new RunError('unreadable', `The recorded run could not be read: ${(err as Error).message}`);
    });
    if (!run) throw new RunError('not_found', `Run ${runId} is not in history.`);
    return run;
  };
  return {
    'presets:list': async () => ({ presets: presets.list() }),
    'presets:save': (input) => presets.save(input),
    'presets:rename': ({ id, name }) => guard(() => presets.rename(id, name)),
    'presets:duplicate': ({ id }) => guard(() => presets.duplicate(id)),
    'presets:delete': async ({ id }) => ({ deleted: await guard(() => presets.delete(id)) }),
    'presets:restore': ({ preset }) => presets.restore(preset),
    'presets:export': async ({ ids }) => presets.exportText(ids, collections.list().folders),
    'presets:import': ({ text, onConflict }) =>
      guard(async () => {
        const { folders, ...result } = await presets.importText(text, onConflict);
        await collections.mergeFolders(folders);
        return result;
      }),
    // A run is queued for history in the same tick its end push goes out, so a window that asks right after
    // seeing the verdict must wait for that save, or the run it just watched is missing.
    'history:list': async (filter) => {
      await history.settled();
      return history.list(filter);
    },
    'history:get': ({ runId }) => recorded(runId),
    'history:delete': async ({ runId }) => ({ deleted: await history.delete(runId) }),
    'history:rename': async ({ runId, name }) => history.rename(runId, name),
    'history:pin': async ({ runId, pinned }) => history.pin(runId, pinned),
    'history:export': async ({ runIds, format }) => {
      const runs: RecordedRun[] = [];
      for (const runId of runIds) runs.push(await recorded(runId));
      // The profile's secrets as they are now: a key typed into it since is scrubbed from the file too.
      const secretsOf = (run: RecordedRun) => {
        const profile = ctx.profiles.get(run.ledger.profileId);
        return profile ? secretsOfProfile(profile, ctx.profiles.secretsFor(profile.id)) : [];
      };
      return { ...exportRuns(runs, format, secretsOf, version), count: runs.length };
    },
    'history:clear': async () => ({ deleted: await history.clear() }),
    'history:settings': async (input) =>
      input.maxRuns || input.maxBytes ? history.updateSettings(input) : history.getSettings(),
    'history:code': async ({ runId, language }) => {
      const { ledger } = await recorded(runId);
      let body: unknown;
      try {
        body = JSON.parse(ledger.body);
      } catch {
        throw new RunError('invalid_input', 'The recorded body is not JSON.');
      }
      if (!body || typeof body !== 'object' || Array.isArray(body))
        throw new RunError('invalid_input', 'The recorded body is not a JSON object.');
      const input = exportInputFromLedger(ledger, body as Record<string, unknown>);
      if (!input)
        throw new RunError(
          'invalid_input',
          `The recorded URL ${ledger.url} does not end in ${PROTOCOL_INFO[ledger.protocol].path}.`,
        );
      return { language, code: exportCode(language, input) };
    },
    'export:code': async ({ profileId, protocol, body, language }) => {
      const profile = ctx.profiles.get(profileId);
      if (!profile) throw new RunError('not_found', `No profile with id ${profileId}.`);
      const { baseUrl, authScheme, extraHeaders, secretHeaders } = profile;
      return {
        language,
        code: exportCode(language, { baseUrl, authScheme, extraHeaders, secretHeaders, protocol, body }),
      };
    },
    'import:curl': async ({ text }) => {
      const r = parseCurl(text);
      if ('error' in r) throw new RunError('invalid_input', r.error);
      return r;
    },
  };
}
