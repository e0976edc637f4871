import type { ProtocolId } from '../../../../shared/protocols/types';
import { PROTOCOL_INFO } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';

/**
 * "Loaded …" with Undo, for the last preset loaded (into `protocol`, or into any tab when none is given). Undo
 * puts back the body, the draft and the output that were there; it is offered until that composer sends again.
 */
export function PresetLoadNote({ protocol }: { protocol?: ProtocolId }) {
  const load = useAppStore((s) => s.presetLoad);
  const runs = useAppStore((s) => (s.presetLoad ? s.composers[s.presetLoad.protocol].runIds.length : 0));
  const undone = useAppStore((s) => s.presetLoadUndone);
  const dismissed = useAppStore((s) => s.presetLoadNoteDismissed);
  if (!load || (protocol && load.protocol !== protocol) || runs > load.before.runIds.length) return null;
  const where = protocol ? '' : ` into ${PROTOCOL_INFO[load.protocol].label}`;
  return (
    <p className="composer-note" role="note" aria-label="Preset loaded">
      <span>
        Loaded preset “{load.name}”{where}; the previous request and its output were set aside.
      </span>{' '}
      <button type="button" className="small" onClick={undone}>
        Undo
      </button>
      <button type="button" className="ghost small" aria-label="Dismiss" onClick={dismissed}>
        ✕
      </button>
    </p>
  );
}
