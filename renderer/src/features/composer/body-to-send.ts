import { useMemo } from 'react';
import { appendUserTurn } from '../../../../shared/protocols/compose';
import type { ProtocolId, Transcript } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { turnCount, withReplyAt } from '../conversation/conversation-edits';
import { useOpenReply } from './use-own-run';

type Body = Record<string, unknown>;

/** A finished reply not yet in the body: `at` is how many turns it answered. */
export interface OpenReply {
  runId: string;
  at: number;
  transcript: Transcript;
}

/**
 * The body Send would send right now: the composer's body, plus the text in the "Message" box as a new user
 * turn (as the Composer's send does). The token counter and the code export both show this one, so what they
 * count and write is what goes out. With `reply`, a reply the Conversation shows joins at its place once
 * something follows it (new words, or a turn added since); alone, Send asks the same request again.
 */
export function bodyToSend(protocol: ProtocolId, body: Body, draft: string, reply?: OpenReply): Body {
  const text = draft.trim();
  const joined =
    reply && joinsReply(protocol, body, draft, reply) ? withReplyAt(protocol, body, reply.at, reply.transcript) : body;
  return text ? appendUserTurn(protocol, joined, text) : joined;
}

/** Whether Send carries the open reply: something follows it. */
export function joinsReply(protocol: ProtocolId, body: Body, draft: string, reply: OpenReply | undefined): boolean {
  return !!reply && (draft.trim() !== '' || turnCount(protocol, body) > reply.at);
}

/** `bodyToSend` for a composer tab, kept stable between renders while neither the body nor the draft changes. */
export function useBodyToSend(protocol: ProtocolId): Body {
  const body = useAppStore((s) => s.composers[protocol].body);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const reply = useOpenReply(protocol);
  return useMemo(() => bodyToSend(protocol, body, draft, reply), [protocol, body, draft, reply]);
}
