/**
 * What a conversation may be, per protocol, and which reply still answers it. Pure: the composer asks these
 * before it offers tool results or Send, so it never sends a conversation other than the one on screen.
 */
import type { ProtocolId } from '../../../../shared/protocols/types';

type Body = Record<string, unknown>;
const isObj = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);
const isSystem = (t: unknown) => isObj(t) && (t.role === 'system' || t.role === 'developer');

/** The turns of a body, without Chat's leading system turn (the system prompt is not the conversation). */
export function conversationTurns(protocol: ProtocolId, body: Body): unknown[] {
  if (protocol === 'responses') {
    if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
    return Array.isArray(body.input) ? body.input : [];
  }
  const turns = Array.isArray(body.messages) ? body.messages : [];
  return protocol === 'chat' ? turns.filter((t, i) => !(i === 0 && isSystem(t))) : turns;
}

/**
 * Whether a reply to `sent` still answers `body`: while the body starts with the turns that were sent, its tool
 * calls and Continue apply; once one of those turns was removed or changed, the reply answers another
 * conversation and goes with it.
 */
export function answersConversation(protocol: ProtocolId, sent: Body | undefined, body: Body): boolean {
  if (!sent) return true;
  const was = conversationTurns(protocol, sent);
  const now = conversationTurns(protocol, body);
  return was.length <= now.length && was.every((t, i) => JSON.stringify(t) === JSON.stringify(now[i]));
}

/**
 * A conversation the protocol refuses, in a sentence, or undefined. Messages needs a first turn from the user
 * (docs/protocols.md §1.2); the other protocols take any order.
 */
export function conversationProblem(protocol: ProtocolId, body: Body): string | undefined {
  if (protocol !== 'messages') return undefined;
  const turns = conversationTurns(protocol, body);
  if (turns.length === 0) return 'Messages needs at least one turn: type a message.';
  const first = turns[0];
  if (isObj(first) && first.role === 'assistant')
    return 'Messages must start with a user turn; the API refuses a conversation that starts with the assistant.';
  return undefined;
}

/** "New conversation": no turns (Chat keeps its system turn), and no reference to a stored one. */
export function emptiedConversation(protocol: ProtocolId, body: Body): Body {
  if (protocol === 'responses') {
    const { previous_response_id: _none, ...rest } = body;
    return { ...rest, input: [] };
  }
  const turns = Array.isArray(body.messages) ? body.messages : [];
  return { ...body, messages: protocol === 'chat' && isSystem(turns[0]) ? [turns[0]] : [] };
}
