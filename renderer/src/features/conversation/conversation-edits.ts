/**
 * What Edit, Branch and Regenerate do to a request body, per protocol. Pure: each returns a new body, and every
 * field but the conversation's turns stays as it was (docs/architecture.md §5: nothing typed is dropped).
 */
import { appendAssistantTurn } from '../../../../shared/protocols/compose';
import type { ProtocolId, Transcript } from '../../../../shared/protocols/types';
import { setTurnText } from '../composer/body-fields';
import type { MessageView } from './messages-view';

type Body = Record<string, unknown>;
const isObj = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);

const key = (protocol: ProtocolId) => (protocol === 'responses' ? 'input' : 'messages');

/** The raw turn list and where the conversation starts in it (after Chat's system turn). */
function split(protocol: ProtocolId, body: Body): { head: unknown[]; turns: unknown[] } {
  const v = body[key(protocol)];
  const all =
    protocol === 'responses' && typeof v === 'string' ? [{ role: 'user', content: v }] : Array.isArray(v) ? v : [];
  const system = protocol === 'chat' && isObj(all[0]) && (all[0].role === 'system' || all[0].role === 'developer');
  return system ? { head: all.slice(0, 1), turns: all.slice(1) } : { head: [], turns: all };
}

const join = (protocol: ProtocolId, body: Body, head: unknown[], turns: unknown[]): Body => ({
  ...body,
  [key(protocol)]: [...head, ...turns],
});

/** The conversation's turns after the first `keep` set aside (the system prompt stays). */
export function keepTurns(protocol: ProtocolId, body: Body, keep: number): Body {
  const { head, turns } = split(protocol, body);
  return join(protocol, body, head, turns.slice(0, keep));
}

/** The conversation's turns from `from` on, as they are in the body. */
export function turnsFrom(protocol: ProtocolId, body: Body, from: number): unknown[] {
  return split(protocol, body).turns.slice(from);
}

/** `body` with `turns` in place of everything from conversation turn `from` on. */
export function replaceFrom(protocol: ProtocolId, body: Body, from: number, turns: unknown[]): Body {
  const split_ = split(protocol, body);
  return join(protocol, body, split_.head, [...split_.turns.slice(0, from), ...turns]);
}

/** Edit: the message's text changed in place, and what came after it set aside (Send goes on from there). */
export function editedMessage(protocol: ProtocolId, body: Body, m: MessageView, text: string): Body {
  if (m.editTurn === undefined) return body;
  return keepTurns(protocol, setTurnText(protocol, body, m.editTurn, text), m.turn + m.span);
}

/** Branch: the conversation up to and including the message. */
export function branchedAt(protocol: ProtocolId, body: Body, m: MessageView): Body {
  return keepTurns(protocol, body, m.turn + m.span);
}

/**
 * A finished reply joined to the conversation at its place: after the `at` turns it answered, before any turn
 * added since (an image attached after it). The next Send then carries it, as the conversation shows.
 */
export function withReplyAt(protocol: ProtocolId, body: Body, at: number, transcript: Transcript): Body {
  const { head, turns } = split(protocol, body);
  const reply = turnsFrom(protocol, appendAssistantTurn(protocol, join(protocol, body, [], []), transcript), 0);
  return join(protocol, body, head, [...turns.slice(0, at), ...reply, ...turns.slice(at)]);
}

/** How many conversation turns a body has (what a reply to it answered). */
export function turnCount(protocol: ProtocolId, body: Body): number {
  return split(protocol, body).turns.length;
}

/** One reply of a regenerated request: a run (its reply shown from the run) or turns that were in the body. */
export type ReplyVariant = { runId: string } | { turns: unknown[] };

/**
 * Which variant the tab shows now: the one whose turns end the body, or else the run on view whose reply is not
 * in the body. -1 when the conversation moved on from them (an edit, a send).
 */
export function shownVariant(
  protocol: ProtocolId,
  body: Body,
  variants: { at: number; items: ReplyVariant[] },
  runOnView: string | undefined,
): number {
  const tail = JSON.stringify(turnsFrom(protocol, body, variants.at));
  if (turnCount(protocol, body) === variants.at && runOnView !== undefined) {
    const i = variants.items.findIndex((v) => 'runId' in v && v.runId === runOnView);
    if (i >= 0) return i;
  }
  return variants.items.findIndex((v) => 'turns' in v && JSON.stringify(v.turns) === tail);
}
