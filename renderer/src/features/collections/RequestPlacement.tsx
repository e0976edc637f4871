import { useState } from 'react';
import type { Preset } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { ExpectEditor } from './ExpectEditor';
import { pathKey } from './tree';

/**
 * Where a request sits and what it expects: "Move to" a folder, up or down inside it (what dragging does, for
 * the keyboard), and its expectations for a collection run.
 */
export function RequestPlacement(props: { preset: Preset; siblings: readonly Preset[]; folders: readonly string[][] }) {
  const { preset: p, siblings } = props;
  const moved = useAppStore((s) => s.presetMoved);
  const saveRequested = useAppStore((s) => s.presetSaveRequested);
  const [expecting, setExpecting] = useState(false);
  const folder = p.folder ?? [];
  const i = siblings.findIndex((x) => x.id === p.id);
  return (
    <>
      <select
        aria-label={`Move ${p.name} to`}
        value={pathKey(folder)}
        onChange={(e) => {
          const to = props.folders.find((f) => pathKey(f) === e.target.value) ?? [];
          void moved({ id: p.id, folder: to });
        }}
      >
        <option value="">No folder</option>
        {props.folders.map((f) => (
          <option key={pathKey(f)} value={pathKey(f)}>
            {f.join(' / ')}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="ghost small"
        aria-label={`Move ${p.name} up`}
        disabled={i <= 0}
        onClick={() => void moved({ id: p.id, folder, before: siblings[i - 1].id })}
      >
        ↑
      </button>
      <button
        type="button"
        className="ghost small"
        aria-label={`Move ${p.name} down`}
        disabled={i < 0 || i >= siblings.length - 1}
        onClick={() => void moved({ id: p.id, folder, before: siblings[i + 2]?.id })}
      >
        ↓
      </button>
      <button
        type="button"
        className="ghost"
        aria-label={`Expectations of ${p.name}`}
        onClick={() => setExpecting(!expecting)}
      >
        Expect…
      </button>
      {expecting && (
        <ExpectEditor
          name={p.name}
          expect={p.expect}
          onSave={async (expect) => {
            const { id, name, notes, tags, protocol, model, body, stream, compare } = p;
            const r = await saveRequested({ id, name, notes, tags, protocol, model, body, stream, compare, expect });
            return r.ok ? undefined : r.error.message;
          }}
          onClose={() => setExpecting(false)}
        />
      )}
    </>
  );
}
