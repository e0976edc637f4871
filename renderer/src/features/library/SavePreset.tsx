import { useState } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { useBodyToSend } from '../composer/body-to-send';
import { usePresetSave } from './use-preset-save';

export function SavePreset({ protocol }: { protocol: ProtocolId }) {
  // What Send would send, as the token counter and the code export show it: the "Message" box included.
  const body = useBodyToSend(protocol);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const [tags, setTags] = useState('');
  const { message, reset, clash, save, replace } = usePresetSave(() => {
    setOpen(false);
    setName('');
    setNotes('');
    setTags('');
  });

  const input = () => ({
    name,
    notes: notes || undefined,
    tags: tags.split(/[,\s]+/).filter(Boolean),
    protocol,
    model: typeof body.model === 'string' ? body.model : undefined,
    body,
    stream: body.stream === true,
  });

  if (!open) {
    return (
      <>
        {message && (
          <span className="muted small" role="status">
            {message}
          </span>
        )}
        <button
          type="button"
          disabled={!!jsonError}
          onClick={() => {
            reset();
            setOpen(true);
          }}
        >
          Save preset
        </button>
      </>
    );
  }
  return (
    <form
      className="save-preset"
      aria-label="Save preset"
      onSubmit={(e) => {
        e.preventDefault();
        void save(input());
      }}
    >
      <input
        aria-label="Preset name"
        placeholder="name"
        autoFocus
        value={name}
        aria-invalid={!!clash}
        onChange={(e) => {
          setName(e.target.value);
          reset();
        }}
      />
      <input
        aria-label="Preset notes"
        placeholder="notes (optional)"
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
      />
      <input
        aria-label="Preset tags"
        placeholder="tags"
        className="narrow"
        value={tags}
        onChange={(e) => setTags(e.target.value)}
      />
      {draft.trim() && (
        <span className="muted small">The text in the Message box is saved too, as the last user turn.</span>
      )}
      <button type="submit" className="primary" disabled={!name.trim()}>
        Save
      </button>
      <button type="button" className="ghost" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {message && (
        <div className="save-preset-answer">
          <span className="field-error" role="alert">
            {message}
          </span>
          {clash && (
            <button type="button" onClick={() => void replace(input())}>
              Replace it
            </button>
          )}
        </div>
      )}
    </form>
  );
}
