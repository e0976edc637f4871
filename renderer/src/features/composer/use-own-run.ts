import { useMemo } from 'react';
import { pendingToolCalls } from '../../../../shared/protocols/compose';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import type { Body } from './body-fields';
import { answersConversation } from './conversation-rules';
import { turnCount } from '../conversation/conversation-edits';
import type { OpenReply } from './body-to-send';

const parse = (text: string | undefined): Body | undefined => {
  try {
    return text ? (JSON.parse(text) as Body) : undefined;
  } catch {
    return undefined;
  }
};

/** The last run of this tab whose reply belongs to the body on screen, as the core reported it. */
export function useOwnRun(protocol: ProtocolId) {
  const activeRunId = useAppStore((s) => s.composers[protocol].activeRunId);
  const detachedRunId = useAppStore((s) => s.composers[protocol].detachedRunId);
  // After another body was loaded, the active run's reply belongs to another conversation.
  const ownRunId = activeRunId !== detachedRunId ? activeRunId : undefined;
  const sentText = useAppStore((s) => (ownRunId ? s.runs[ownRunId]?.ledger?.body : undefined));
  const transcript = useAppStore((s) => (ownRunId ? s.runs[ownRunId]?.result?.transcript : undefined));
  const verdict = useAppStore((s) => (ownRunId ? s.runs[ownRunId]?.result?.verdict : undefined));
  const status = useAppStore((s) => (activeRunId ? s.runs[activeRunId]?.status : undefined));
  const sent = useMemo(() => parse(sentText), [sentText]);
  return { activeRunId, ownRunId, sent, transcript, verdict, running: status === 'starting' || status === 'streaming' };
}

/**
 * The finished reply that answers the body on screen and is not in it yet: the Conversation shows it after the
 * turns it answered, and the next Send that adds to the conversation carries it there (see `bodyToSend`). None
 * while its tool calls wait for results: those go out through the tool results form.
 */
export function useOpenReply(protocol: ProtocolId): OpenReply | undefined {
  const own = useOwnRun(protocol);
  const body = useAppStore((s) => s.composers[protocol].body);
  const continuedRunId = useAppStore((s) => s.composers[protocol].continuedRunId);
  const { ownRunId, sent, transcript } = own;
  return useMemo(() => {
    if (!ownRunId || !sent || !transcript || continuedRunId === ownRunId) return undefined;
    if (!answersConversation(protocol, sent, body) || pendingToolCalls(transcript).length > 0) return undefined;
    return { runId: ownRunId, at: turnCount(protocol, sent), transcript };
  }, [protocol, body, ownRunId, sent, transcript, continuedRunId]);
}
