import { useState } from 'react';
import { useAppStore } from '../../store';
import { ConnectionsDialog } from './ConnectionsDialog';

export function ProfilePicker() {
  const profiles = useAppStore((s) => s.profiles);
  const profileSelected = useAppStore((s) => s.profileSelected);
  const [open, setOpen] = useState(false);
  if (!profiles) return <span className="muted">Connecting…</span>;
  const active = profiles.profiles.find((p) => p.id === profiles.activeId);
  return (
    <div className="profile-picker">
      <label className="field-inline">
        <span className="label">Profile</span>
        <select aria-label="Profile" value={profiles.activeId} onChange={(e) => void profileSelected(e.target.value)}>
          {profiles.profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <span className="key-badge" title={active?.key.hasKey ? `Key stored: ${active.key.storage}` : 'No key'}>
        {active?.key.hasKey ? `key ${active.key.hint ?? ''}` : 'no key'}
      </span>
      <button type="button" className="ghost" onClick={() => setOpen(true)}>
        Connections…
      </button>
      {open && <ConnectionsDialog onClose={() => setOpen(false)} />}
    </div>
  );
}
