import type { ProtocolId } from '../../../../shared/protocols/types';
import { getSystem, setSystem, setSystemCached, systemCached } from './body-fields';
import { PROTOCOL_PARAMS } from './protocol-params';
import { useComposerBody } from './use-composer-body';

export function SystemPrompt({ protocol }: { protocol: ProtocolId }) {
  const { body, set } = useComposerBody(protocol);
  const system = getSystem(protocol, body);
  const { systemLabel: label, cacheMarks } = PROTOCOL_PARAMS[protocol];
  return (
    <section className="card">
      <label>
        <span className="label">{label}</span>
        <textarea
          aria-label={label}
          rows={2}
          value={system.text}
          disabled={!system.editable}
          onChange={(e) => set(setSystem(protocol, body, e.target.value))}
        />
      </label>
      {cacheMarks && (
        <label className="inline">
          <input
            type="checkbox"
            checked={systemCached(body)}
            onChange={(e) => set(setSystemCached(body, e.target.checked))}
          />{' '}
          cache_control on the system prompt
        </label>
      )}
    </section>
  );
}
