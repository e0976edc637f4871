/**
 * The agents calls: stored results per profile, one check run to its end and stored, and the report of the
 * profile's capability and agent matrices. Checks of a profile stop when the profile is forgotten.
 */
import type { CallName } from '../../../shared/contract';
import { reportHtml, reportMarkdown } from '../../../shared/agents/report';
import type { CapabilityStore } from '../capability-store';
import { scrub, scrubDeep } from '../secrets';
import { secretsOfProfile } from '../http/request';
import { ProbeCancelled } from '../probes/harness';
import { RunError } from '../errors';
import type { CoreContext, Handlers, Receiver } from '../core-context';
import { checkAgent } from './check';
import type { AgentStore } from './store';
import type { SavedReplayStore } from './saved-replays';

/** The connected-agent calls are the agent endpoint's (electron/core/agent-endpoint/handlers.ts). */
type AgentCall = Exclude<
  Extract<CallName, `agents:${string}`>,
  'agents:connect' | 'agents:disconnect' | 'agents:session'
>;

export interface AgentModule {
  handlers: Pick<Handlers, AgentCall>;
  /** Cancels the profile's checks in flight and drops its stored results. */
  forgetProfile(profileId: string): Promise<void>;
  /** Stops every check (the core is closing). */
  cancelAll(): void;
}

export function createAgentHandlers(
  ctx: CoreContext,
  store: AgentStore,
  capabilities: CapabilityStore,
  replays: SavedReplayStore,
): AgentModule {
  const deps = { runs: ctx.runs, profiles: ctx.profiles, timeouts: ctx.timeouts };
  /** Each check in flight: its profile, and the window that started it (only that one may stop it). */
  const inFlight = new Map<AbortController, { profileId: string; receiver: Receiver }>();

  const profileSecrets = (profileId: string): string[] => {
    const p = ctx.profiles.get(profileId);
    return p ? secretsOfProfile(p, ctx.profiles.secretsFor(profileId)) : [];
  };
  const requireProfile = (profileId: string) => {
    const profile = ctx.profiles.get(profileId);
    if (!profile) throw new RunError('not_found', `No profile with id ${profileId}.`);
    return profile;
  };

  const handlers: AgentModule['handlers'] = {
    'agents:list': async ({ profileId }) => {
      requireProfile(profileId);
      const now = Date.now();
      return {
        profileId,
        // Scrubbed again on the way out: a file written before a fix, or under another key, may still hold one.
        results: scrubDeep(store.list(profileId), profileSecrets(profileId)).map((r) => ({
          ...r,
          ageMs: Math.max(0, now - Date.parse(r.at)),
        })),
      };
    },
    'agents:check': async ({ replayId, ...input }, receiver) => {
      requireProfile(input.profileId);
      const replay = replayId === undefined ? undefined : replays.get(replayId);
      if (replayId !== undefined && !replay) throw new RunError('not_found', `No saved replay with id ${replayId}.`);
      if (replay && replay.agent !== input.agent)
        throw new RunError('invalid_input', `The saved replay “${replay.name}” is checked as ${replay.agent}.`);
      const controller = new AbortController();
      inFlight.set(controller, { profileId: input.profileId, receiver });
      try {
        // Evidence quotes answers: scrubbed before agents.json and the reply, as capability results are.
        const result = scrubDeep(
          await checkAgent(deps, { ...input, replay }, controller.signal),
          profileSecrets(input.profileId),
        );
        if (!controller.signal.aborted) await store.put(input.profileId, result);
        return result;
      } catch (err) {
        if (err instanceof ProbeCancelled) throw new RunError('cancelled', 'The check was stopped before it finished.');
        throw err;
      } finally {
        inFlight.delete(controller);
      }
    },
    'agents:cancel': async ({ profileId }, receiver) => ({
      cancelled: cancel((c) => c.profileId === profileId && c.receiver === receiver),
    }),
    'agents:report': async ({ profileId }) => {
      const profile = requireProfile(profileId);
      const input = {
        profileName: profile.name,
        baseUrl: profile.baseUrl,
        generatedAt: new Date().toISOString(),
        capabilities: capabilities.list(profileId),
        agents: store.list(profileId),
      };
      // Stored evidence is scrubbed when recorded; scrubbing again keeps a key out even if a profile's key changed.
      const secrets = ctx.profiles.secretsFor(profileId);
      const fileBase = `gateway-report-${profile.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)}`;
      return { fileBase, markdown: scrub(reportMarkdown(input), secrets), html: scrub(reportHtml(input), secrets) };
    },
  };

  /** Aborts the checks in flight that `which` picks; how many. */
  const cancel = (which: (check: { profileId: string; receiver: Receiver }) => boolean): number => {
    let n = 0;
    for (const [c, check] of inFlight) {
      if (!which(check) || c.signal.aborted) continue;
      c.abort();
      n++;
    }
    return n;
  };
  return {
    handlers,
    cancelAll: () => void cancel(() => true),
    async forgetProfile(profileId) {
      cancel((c) => c.profileId === profileId);
      await store.forget(profileId);
    },
  };
}
