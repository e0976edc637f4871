import { useMemo, useState } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { AttachButtons } from './AttachButtons';
import { AttachmentChip } from './AttachmentChip';
import {
  getTurns,
  removeAttachment,
  removeTurn,
  setTurnCached,
  setTurnRole,
  setTurnText,
  type TurnView,
} from './body-fields';
import { documentSizeProblem } from './document-parts';
import { imageSizeProblem } from './image-file';
import { PROTOCOL_PARAMS } from './protocol-params';
import { fileDropHandlers, useAttachFile } from './use-attach-file';
import { useComposerBody } from './use-composer-body';

function Turn({ protocol, turn, i }: { protocol: ProtocolId; turn: TurnView; i: number }) {
  const { body, set } = useComposerBody(protocol);
  const n = i + 1;
  return (
    <div className={`turn role-${turn.role}`}>
      <div className="turn-head">
        {turn.role === 'user' || turn.role === 'assistant' ? (
          <select
            aria-label={`Turn ${n} role`}
            value={turn.role}
            onChange={(e) => set(setTurnRole(protocol, body, i, e.target.value))}
          >
            <option value="user">user</option>
            <option value="assistant">assistant</option>
          </select>
        ) : (
          <span className="role-tag">{turn.role}</span>
        )}
        {PROTOCOL_PARAMS[protocol].cacheMarks && (turn.role === 'user' || turn.role === 'assistant') && (
          <label className="inline small" title="Put a cache_control breakpoint on this turn's last block">
            <input
              type="checkbox"
              checked={!!turn.cached}
              onChange={(e) => set(setTurnCached(body, i, e.target.checked))}
            />{' '}
            cache
          </label>
        )}
        <button
          type="button"
          className="ghost small"
          aria-label={`Remove turn ${n}`}
          onClick={() => set(removeTurn(protocol, body, i))}
        >
          ✕
        </button>
      </div>
      {turn.text !== undefined ? (
        <textarea
          aria-label={`Turn ${n} text`}
          rows={Math.min(6, Math.max(1, Math.ceil(turn.text.length / 70)))}
          value={turn.text}
          onChange={(e) => set(setTurnText(protocol, body, i, e.target.value))}
        />
      ) : (
        <div className="turn-summary mono small">{turn.summary}</div>
      )}
      {turn.text !== undefined && turn.images.length > 0 && (
        <div className="turn-images">
          {turn.images.map((img, k) => (
            <figure key={img.part}>
              <TurnImage src={img.src} name={`Turn ${n} image ${k + 1}`} />
              <button
                type="button"
                className="ghost small"
                aria-label={`Remove turn ${n} image ${k + 1}`}
                onClick={() => set(removeAttachment(protocol, body, i, img.part))}
              >
                ✕
              </button>
            </figure>
          ))}
        </div>
      )}
      {turn.text !== undefined && turn.documents.length > 0 && (
        <div className="turn-documents">
          {turn.documents.map((doc, k) => (
            <AttachmentChip
              key={doc.part}
              doc={doc}
              label={`Turn ${n} document ${k + 1}`}
              onRemove={() => set(removeAttachment(protocol, body, i, doc.part))}
            />
          ))}
        </div>
      )}
    </div>
  );
}

/** A turn's image, or, where it cannot be shown (damaged data from a preset, curl or history), a chip saying so. */
function TurnImage({ src, name }: { src: string; name: string }) {
  const [broken, setBroken] = useState(false);
  if (broken)
    return (
      <span className="image-broken small" role="img" aria-label={`${name}: can't be shown`}>
        Image can't be shown
      </span>
    );
  return <img src={src} alt={name} onError={() => setBroken(true)} />;
}

export function Conversation({ protocol }: { protocol: ProtocolId }) {
  const { body } = useComposerBody(protocol);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const typeDraft = useAppStore((s) => s.composerDraftTyped);
  const turns = getTurns(protocol, body);
  const tooBig = imageSizeProblem(protocol, body);
  const docsTooBig = useMemo(() => documentSizeProblem(protocol, body), [protocol, body]);
  const { attach, refused } = useAttachFile(protocol);
  return (
    <section className="card turns" aria-label="Turns" {...fileDropHandlers(attach)}>
      <div className="card-head">
        <span className="label">Turns</span>
        <span className="muted small">
          {turns.length} turn{turns.length === 1 ? '' : 's'}
        </span>
      </div>
      {turns.map((t, i) => (
        <Turn key={i} protocol={protocol} turn={t} i={i} />
      ))}
      <textarea
        aria-label="Message"
        className="draft"
        rows={3}
        placeholder="Next user turn… (Ctrl+Enter sends)"
        value={draft}
        onChange={(e) => typeDraft(protocol, e.target.value)}
      />
      <AttachButtons attach={attach} refused={refused} />
      {tooBig && (
        <p className="field-error" role="alert" aria-label="Image size">
          {tooBig}
        </p>
      )}
      {docsTooBig && (
        <p className="field-error" role="alert" aria-label="Document size">
          {docsTooBig}
        </p>
      )}
    </section>
  );
}
