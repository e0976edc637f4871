/**
 * The saved-replay calls (docs/agents.md "Saved replays"): a connected agent's session saved from its runs,
 * listed, and deleted. What is saved holds none of the profile's secrets and not the session's local token.
 */
import type { Handlers } from '../core-context';
import type { CoreContext } from '../core-context';
import { RunError } from '../errors';
import { secretsOfProfile } from '../http/request';
import { infoOf, replayFromSession, type SavedReplayStore } from './saved-replays';

export function createReplayHandlers(
  ctx: CoreContext,
  store: SavedReplayStore,
  /** The local token of a session of this run of the app; undefined for one it never opened. */
  tokenOf: (sessionId: string) => string | undefined,
): Pick<Handlers, 'replays:list' | 'replays:save' | 'replays:delete'> {
  return {
    'replays:list': async () => store.list().map(infoOf),
    'replays:save': async ({ name, runIds }) => {
      const ledgers = runIds.map((id) => {
        const run = ctx.runs.get(id);
        if (!run)
          throw new RunError('not_found', `The run ${id} is no longer kept: save the session while it is listed.`);
        return run.ledger;
      });
      const sessionId = ledgers[0].sessionId;
      if (!sessionId || ledgers.some((l) => l.sessionId !== sessionId))
        throw new RunError('invalid_input', 'These runs are not the exchanges of one connected agent session.');
      const token = tokenOf(sessionId);
      if (!token) throw new RunError('not_found', 'This session was not opened by this run of the app.');
      const profile = ctx.profiles.get(ledgers[0].profileId);
      const secrets = profile ? secretsOfProfile(profile, ctx.profiles.secretsFor(profile.id)) : [];
      const replay = replayFromSession({
        name,
        profileName: ledgers[0].profileName,
        ledgers: [...ledgers].sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
        secrets: [...secrets, token],
        profileHeaders: profile ? Object.keys(profile.extraHeaders) : [],
      });
      await store.put(replay);
      return infoOf(replay);
    },
    'replays:delete': async ({ id }) => ({ deleted: await store.delete(id) }),
  };
}
