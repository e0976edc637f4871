/**
 * The "Connect an agent" calls: one session at a time, for one profile. It ends on Disconnect, when its profile
 * is selected away, changed or deleted, and when the core closes. Its turns go to every window that opened or
 * asked for it.
 */
import type { AgentSessionUpdate, CallName } from '../../../shared/contract';
import type { CoreContext, Handlers, Receiver } from '../core-context';
import { RunError } from '../errors';
import { AgentSession } from './session';

type SessionCall = 'agents:connect' | 'agents:disconnect' | 'agents:session';

export interface AgentSessionModule {
  handlers: Pick<Handlers, Extract<CallName, SessionCall>>;
  /** The profile was selected away, changed or deleted: a session for it ends. */
  profileChanged(profileId: string, why: string): Promise<void>;
  receiverClosed(receiver: Receiver): void;
  /** The local token of a session this run of the app opened (a saved replay is scrubbed of it). */
  tokenOf: (sessionId: string) => string | undefined;
  close(): Promise<void>;
}

export function createAgentSessionHandlers(ctx: CoreContext): AgentSessionModule {
  let session: AgentSession | undefined;
  /** Every session's token, kept in memory only, so that a session saved after it ended is still scrubbed of it. */
  const tokens = new Map<string, string>();
  const listeners = new Set<Receiver>();
  const push = (update: AgentSessionUpdate) => {
    for (const r of listeners) r.send('agents:update', update);
  };
  // Connect, disconnect and a profile's change run one after another: two connects at once would otherwise
  // both open a session, and the one not kept would listen on with no way to close it.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const next = queue.then(step);
    queue = next.catch(() => undefined);
    return next;
  };
  const end = async (reason: string) => {
    const s = session;
    if (!s) return false;
    session = undefined;
    await s.close();
    push({ kind: 'closed', sessionId: s.sessionId, reason });
    return true;
  };

  return {
    handlers: {
      'agents:connect': ({ profileId }, receiver) =>
        serial(async () => {
          if (!ctx.profiles.get(profileId)) throw new RunError('not_found', `No profile with id ${profileId}.`);
          await end('A new session was opened.');
          listeners.add(receiver);
          const opened = await AgentSession.open(profileId, {
            profiles: ctx.profiles,
            runs: ctx.runs,
            onTurn: (turn) => push({ kind: 'turn', sessionId: turn.sessionId, turn }),
          });
          session = opened;
          tokens.set(opened.sessionId, opened.token);
          return opened.connection();
        }),
      'agents:disconnect': () => serial(async () => ({ closed: await end('Disconnected.') })),
      'agents:session': async (_input, receiver) => {
        listeners.add(receiver);
        return session ? { connection: session.connection(), turns: [...session.turns.values()] } : { turns: [] };
      },
    },
    profileChanged: (profileId, why) =>
      serial(async () => {
        if (session?.profileId === profileId) await end(why);
      }),
    tokenOf: (sessionId) => tokens.get(sessionId),
    receiverClosed(receiver) {
      listeners.delete(receiver);
    },
    close: () => serial(async () => void (await end('The app is closing.'))),
  };
}
