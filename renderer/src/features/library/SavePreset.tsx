import { useState } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { gateway } from '../../bridge';
import { useAppStore } from '../../store';
import { useBodyToSend } from '../composer/body-to-send';

export function SavePreset({ protocol }: { protocol: ProtocolId }) {
  // What Send would send, as the token counter and the code export show it: the "Message" box included.
  const body = useBodyToSend(protocol);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const presetsRequested = useAppStore((s) => s.presetsRequested);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const [tags, setTags] = useState('');
  const [message, setMessage] = useState<string>();

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
            setMessage(undefined);
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
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await gateway.presets.save({
          name,
          notes: notes || undefined,
          tags: tags.split(/[,\s]+/).filter(Boolean),
          protocol,
          model: typeof body.model === 'string' ? body.model : undefined,
          body,
          stream: body.stream === true,
        });
        if (!r.ok) return setMessage(r.error.message);
        setMessage(`Saved “${r.value.name}”.`);
        setOpen(false);
        setName('');
        setNotes('');
        setTags('');
        void presetsRequested();
      }}
    >
      <input aria-label="Preset name" placeholder="name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      <input aria-label="Preset notes" placeholder="notes (optional)" value={notes} onChange={(e) => setNotes(e.target.value)} />
      <input aria-label="Preset tags" placeholder="tags" className="narrow" value={tags} onChange={(e) => setTags(e.target.value)} />
      {draft.trim() && <span className="muted small">The text in the Message box is saved too, as the last user turn.</span>}
      <button type="submit" className="primary" disabled={!name.trim()}>
        Save
      </button>
      <button type="button" className="ghost" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {message && <span className="field-error">{message}</span>}
    </form>
  );
}
