/**
 * Writing a protocol tab's open requests to the core (`drafts:save`), debounced: one timer per protocol, shared by
 * the composer slice (edits of the active request) and the requests slice (open, close, rename, switch).
 */
import type { ProtocolId } from '../../../shared/protocols/types';
import { gateway } from '../bridge';
import type { AppState } from './index';
import { draftsOf } from './requests';

/** How long after the last change a tab's requests are written. */
export const DRAFT_SAVE_MS = 500;

const saveTimers: Partial<Record<ProtocolId, ReturnType<typeof setTimeout>>> = {};

/** Writes a protocol's requests after its last change, and only once the kept ones were read, or they would be lost. */
export function scheduleDraftSave(
  get: () => AppState,
  set: (partial: Partial<AppState>) => void,
  protocol: ProtocolId,
): void {
  if (get().draftsState !== 'ready') return;
  clearTimeout(saveTimers[protocol]);
  saveTimers[protocol] = setTimeout(
    () =>
      void (async () => {
        const s = get();
        const r = await gateway.drafts.save({ protocol, ...draftsOf(s.requests[protocol], s.composers[protocol]) });
        set({ draftsError: r.ok ? undefined : r.error.message });
      })(),
    DRAFT_SAVE_MS,
  );
}
