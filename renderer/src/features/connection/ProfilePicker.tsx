import { useState } from 'react';
import { useAppStore } from '../../store';
import { lazyPart } from '../../lib/lazy-part';

/** Opened by "Connections…": a chunk of its own, fetched when first opened. */
const ConnectionsDialog = lazyPart(
  () => import('./ConnectionsDialog').then((m) => m.ConnectionsDialog),
  'the Connections dialog',
  (_, failure) => failure ?? null,
);

export function ProfilePicker() {
  const profiles = useAppStore((s) => s.profiles);
  const profilesError = useAppStore((s) => s.profilesError);
  const profilesRequested = useAppStore((s) => s.profilesRequested);
  const profileSelected = useAppStore((s) => s.profileSelected);
  const [open, setOpen] = useState(false);
  const [selectError, setSelectError] = useState<string>();
  if (!profiles) {
    if (!profilesError) return <span className="muted">Connecting…</span>;
    return (
      <div className="profile-picker">
        <span className="field-error" role="alert">
          Could not load the profiles: {profilesError.message}
        </span>
        <button type="button" onClick={() => void profilesRequested()}>
          Retry
        </button>
      </div>
    );
  }
  const active = profiles.profiles.find((p) => p.id === profiles.activeId);
  return (
    <div className="profile-picker">
      <label className="field-inline">
        <span className="label">Profile</span>
        <select
          aria-label="Profile"
          value={profiles.activeId}
          onChange={(e) =>
            void (async () => {
              setSelectError(undefined);
              const err = await profileSelected(e.target.value);
              if (err) setSelectError(`Could not switch profile: ${err.message}`);
            })()
          }
        >
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
      {selectError && (
        <span className="field-error" role="alert">
          {selectError}
        </span>
      )}
      {open && <ConnectionsDialog onClose={() => setOpen(false)} />}
    </div>
  );
}
