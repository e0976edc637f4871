import { useState } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import {
  addImage,
  getTurns,
  removeImage,
  removeTurn,
  setTurnCached,
  setTurnRole,
  setTurnText,
  type TurnView,
} from './body-fields';
import { bodyToSend } from './body-to-send';
import { imageSizeProblem, NOT_AN_IMAGE, sniffImage } from './image-file';
import { PROTOCOL_PARAMS } from './protocol-params';
import { useComposerBody } from './use-composer-body';

function base64(buf: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(bin);
}

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
                onClick={() => set(removeImage(protocol, body, i, img.part))}
              >
                ✕
              </button>
            </figure>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Whether the browser can decode the image: a valid header over damaged data would go out as an image no model
 * can read. Where the browser has no decoder to ask (tests under jsdom), the signature alone decides.
 */
async function decodes(bytes: Uint8Array, type: string): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return true;
  try {
    (await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }))).close();
    return true;
  } catch {
    return false;
  }
}

const UNDECODABLE = (type: string) =>
  `It starts like a ${type.slice(6).toUpperCase()} image but its image data cannot be decoded (damaged or cut short), so it was not attached.`;

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

/** "Attach image": the bytes decide what the file is; anything but PNG, JPEG, GIF or WebP is refused. */
function AttachImage({ protocol }: { protocol: ProtocolId }) {
  const { body, set } = useComposerBody(protocol);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const typeDraft = useAppStore((s) => s.composerDraftTyped);
  const [refused, setRefused] = useState<string>();
  return (
    <div className="row">
      <label className="ghost file-button">
        Attach image
        <input
          type="file"
          aria-label="Attach image"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          onChange={(e) =>
            void (async () => {
              const input = e.target;
              const file = input.files?.[0];
              if (!file) return;
              const bytes = new Uint8Array(await file.arrayBuffer());
              input.value = '';
              const type = sniffImage(bytes);
              const problem = !type ? NOT_AN_IMAGE : (await decodes(bytes, type)) ? undefined : UNDECODABLE(type);
              setRefused(problem && `${file.name}: ${problem}`);
              if (!type || problem) return;
              const withDraft = bodyToSend(protocol, body, draft);
              typeDraft(protocol, '');
              set(addImage(protocol, withDraft, type, base64(bytes)));
            })()
          }
        />
      </label>
      {refused && (
        <span className="field-error" role="alert">
          {refused}
        </span>
      )}
    </div>
  );
}

export function Conversation({ protocol }: { protocol: ProtocolId }) {
  const { body } = useComposerBody(protocol);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const typeDraft = useAppStore((s) => s.composerDraftTyped);
  const turns = getTurns(protocol, body);
  const tooBig = imageSizeProblem(protocol, body);
  return (
    <section className="card turns" aria-label="Turns">
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
      <AttachImage protocol={protocol} />
      {tooBig && (
        <p className="field-error" role="alert" aria-label="Image size">
          {tooBig}
        </p>
      )}
    </section>
  );
}
