import { useMemo } from 'react';
import { appendUserTurn } from '../../../../shared/protocols/compose';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';

type Body = Record<string, unknown>;

/**
 * The body Send would send right now: the composer's body, plus the text in the "Message" box as a new user
 * turn (as the Composer's send does). The token counter and the code export both show this one, so what they
 * count and write is what goes out.
 */
export function bodyToSend(protocol: ProtocolId, body: Body, draft: string): Body {
  const text = draft.trim();
  return text ? appendUserTurn(protocol, body, text) : body;
}

/** `bodyToSend` for a composer tab, kept stable between renders while neither the body nor the draft changes. */
export function useBodyToSend(protocol: ProtocolId): Body {
  const body = useAppStore((s) => s.composers[protocol].body);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  return useMemo(() => bodyToSend(protocol, body, draft), [protocol, body, draft]);
}
