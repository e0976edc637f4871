import { useCallback } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import type { Body } from './body-fields';

/** A tab's body and the edit that replaces it: what every part of the form reads and writes. */
export function useComposerBody(protocol: ProtocolId): { body: Body; set: (next: Body) => void } {
  const body = useAppStore((s) => s.composers[protocol].body);
  const edited = useAppStore((s) => s.composerBodyEdited);
  const set = useCallback((next: Body) => edited(protocol, next), [edited, protocol]);
  return { body, set };
}
