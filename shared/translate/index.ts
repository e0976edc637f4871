/**
 * Request translation between Messages, Chat Completions and Responses (docs/protocols.md §8).
 *
 * Every request is read into one neutral shape (ir.ts: turns, tools, sampling, reasoning…) and written out in
 * the target's shape, each protocol's reader and writer in its own file. Whatever the target cannot express is
 * reported as a Loss at its path in the *source* body, in words for the user: the tab switch shows this list
 * before anything is sent. A field the module does not know is reported "not-translated" and left out: carrying
 * it blind could make the target reject the request, dropping it silently would hide that the user's setting
 * is gone.
 *
 * Where two source forms map onto one target form (a Chat `stop` string vs a list, a Responses `input`
 * string vs a list…), the form that cannot come back is named too, so a round trip A → B → A changes nothing
 * the losses do not name (round-trip.test.ts checks this on the corpus).
 *
 * Pure: no I/O, never mutates its input.
 */
import type { ProtocolId } from '../protocols/types';
import { Ctx, Invalid, type IR, isObj, type Json, PROTOCOL_LABELS, type TranslateResult } from './ir';
import { readMessages } from './messages';
import { writeMessages } from './messages-write';
import { readChat, writeChat } from './chat';
import { readResponses } from './responses';
import { writeResponses } from './responses-write';

export { childPath, PROTOCOL_LABELS, type Effort, type Loss, type TranslateResult } from './ir';
export { effortForBudget } from './thinking';
export { DEFAULT_SCHEMA_NAME } from './openai';
export { DEFAULT_MAX_TOKENS } from './messages-write';
export { CHAT_MAX_STOP } from './chat';
export { RESPONSES_MIN_OUTPUT_TOKENS } from './responses-write';

/** A final assistant turn means "continue this text" in Messages and "an earlier answer" elsewhere. */
function notePrefill(ir: IR, ctx: Ctx): void {
  if (ctx.from !== 'messages' && ctx.to !== 'messages') return;
  const last = ir.turns[ir.turns.length - 1];
  if (!last || last.role !== 'assistant' || last.calls.length > 0) return;
  // An empty one continues nothing; one with no content at all is left out by every writer (Ctx.emptyTurn).
  if (last.content === null || last.content.length === 0) return;
  ctx.change(
    last.path,
    ctx.from === 'messages'
      ? `A final assistant turn is a prefill in Messages (the reply continues it); ${ctx.target} treats it as a ` +
          `finished earlier turn.`
      : `A final assistant turn becomes a prefill in Messages: the reply continues this text, where ${ctx.source} ` +
          `treats it as a finished turn.`,
  );
}

const READERS: Record<ProtocolId, (b: Json, ctx: Ctx) => IR> = {
  messages: readMessages,
  chat: readChat,
  responses: readResponses,
};

const WRITERS: Record<ProtocolId, (ir: IR, ctx: Ctx) => Json> = {
  messages: writeMessages,
  chat: writeChat,
  responses: writeResponses,
};

/**
 * Translates a request body from one protocol's shape to another's, with the list of what could not be
 * carried (or was changed on the way). A malformed request is refused with the reason.
 */
export function translateRequest(from: ProtocolId, to: ProtocolId, body: Record<string, unknown>): TranslateResult {
  if (!(from in READERS) || !(to in READERS))
    return { ok: false, reason: `Unknown protocol: ${!(from in READERS) ? from : to}.` };
  if (!isObj(body)) return { ok: false, reason: 'The request is not a JSON object.' };
  if (from === to) return { ok: true, body: structuredClone(body), losses: [] };
  const ctx = new Ctx(from, to);
  try {
    const ir = READERS[from](body, ctx);
    notePrefill(ir, ctx);
    const out = WRITERS[to](ir, ctx);
    return { ok: true, body: out, losses: ctx.losses };
  } catch (err) {
    if (err instanceof Invalid)
      return { ok: false, reason: `Cannot translate this ${PROTOCOL_LABELS[from]} request: ${err.message}` };
    throw err;
  }
}
