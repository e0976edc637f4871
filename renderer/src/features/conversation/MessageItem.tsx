import { memo, useDeferredValue, useState, type ReactNode } from 'react';
import { useAppStore } from '../../store';
import { CopyButton } from '../../lib/CopyButton';
import { OutputBlocks } from '../stream-viewer/Output';
import { OutputBoundary } from '../stream-viewer/OutputBoundary';
import { editableText, messageText, type MessagePart, type MessageView } from './messages-view';

const ROLE_WORD = { user: 'user', assistant: 'assistant', tool: 'tool results', other: 'item' } as const;

function Part({ p, name }: { p: MessagePart; name: string }) {
  switch (p.kind) {
    case 'text':
      return <div className="msg-text">{p.text}</div>;
    case 'thinking':
      return (
        <details className="thinking">
          <summary>{p.redacted ? 'Thinking (encrypted by the provider)' : 'Thinking'}</summary>
          {!p.redacted && <div className="text plain">{p.text}</div>}
        </details>
      );
    case 'tool_call':
      return (
        <div className="tool-call">
          <div className="tool-head">
            <span className="badge">tool call</span> <span className="mono">{p.name}</span>{' '}
            <span className="muted small mono">{p.id}</span>
          </div>
          <pre className="mono">{p.args}</pre>
        </div>
      );
    case 'tool_result':
      return (
        <div className={`tool-result${p.isError ? ' err' : ''}`}>
          <span className="badge">{p.isError ? 'tool error' : 'result'}</span>{' '}
          <span className="muted small mono">{p.callId}</span>
          <pre className="mono">{p.output}</pre>
        </div>
      );
    case 'image':
      return <img className="msg-image" src={p.src} alt={name} />;
    default:
      return (
        <details className="other-block">
          <summary>
            <span className="badge">{p.type}</span> (kept as sent)
          </summary>
          <pre className="mono">{JSON.stringify(p.raw, null, 2)}</pre>
        </details>
      );
  }
}

/** Edit in place: Save writes the text and sets the later turns aside; Ctrl/Cmd+Enter saves and sends. */
function Editor({ n, initial, onSave, onCancel }: EditorProps) {
  const [text, setText] = useState(initial);
  return (
    <div className="msg-editor">
      <textarea
        aria-label={`Message ${n} text`}
        rows={Math.min(8, Math.max(2, Math.ceil(text.length / 70)))}
        value={text}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
          // The composer's own Ctrl+Enter would send the body without this edit.
          e.preventDefault();
          e.stopPropagation();
          onSave(text, true);
        }}
      />
      <div className="row">
        <button type="button" className="small" onClick={() => onSave(text, false)}>
          Save
        </button>
        <button type="button" className="ghost small" onClick={onCancel}>
          Cancel
        </button>
        <span className="muted small">
          Later turns are set aside (Undo brings them back); then Send goes on from here.
        </span>
      </div>
    </div>
  );
}

interface EditorProps {
  n: number;
  initial: string;
  onSave(text: string, send: boolean): void;
  onCancel(): void;
}

export interface MessageActions {
  /** Absent: the message cannot be edited as text (tool calls, several texts, a reply not in the body yet). */
  onEdit?: (text: string, send: boolean) => void;
  onBranch: () => void;
  /** Only on the last assistant reply. */
  onRegenerate?: () => void;
  /** Held while a run is on or Send is off. */
  busy: boolean;
  editLocked: boolean;
  /** "2 of 2" between regenerated replies, on the last one. */
  variants?: ReactNode;
}

function Actions({
  n,
  text,
  a,
  onEditStart,
}: {
  n: number;
  text: () => string;
  a: MessageActions;
  onEditStart?: () => void;
}) {
  return (
    <div className="msg-actions">
      {a.variants}
      {onEditStart && (
        <button
          type="button"
          className="ghost small"
          aria-label={`Edit message ${n}`}
          disabled={a.busy || a.editLocked}
          onClick={onEditStart}
        >
          Edit
        </button>
      )}
      {a.onRegenerate && (
        <button
          type="button"
          className="ghost small"
          aria-label={`Regenerate message ${n}`}
          disabled={a.busy}
          onClick={a.onRegenerate}
        >
          Regenerate
        </button>
      )}
      <button type="button" className="ghost small" aria-label={`Branch from message ${n}`} onClick={a.onBranch}>
        Branch
      </button>
      <CopyButton className="ghost small" label={`Copy message ${n}`} text={text} />
    </div>
  );
}

/** A message of the request body. */
export function MessageItem({ m, n, a }: { m: MessageView; n: number; a: MessageActions }) {
  const [editing, setEditing] = useState(false);
  const name = (k: number) => `Message ${n} image ${k}`;
  let images = 0;
  return (
    <article className={`msg role-${m.role}`} aria-label={`Message ${n}, ${ROLE_WORD[m.role]}`}>
      <header className="msg-head">
        <span className="msg-role">{ROLE_WORD[m.role]}</span>
        <Actions
          n={n}
          text={() => messageText(m)}
          a={a}
          onEditStart={a.onEdit && !editing ? () => setEditing(true) : undefined}
        />
      </header>
      {editing && a.onEdit ? (
        <Editor
          n={n}
          initial={editableText(m)}
          onCancel={() => setEditing(false)}
          onSave={(text, send) => {
            setEditing(false);
            a.onEdit!(text, send);
          }}
        />
      ) : (
        m.parts.map((p, i) => <Part key={i} p={p} name={p.kind === 'image' ? name(++images) : ''} />)
      )}
    </article>
  );
}

/** Skipped while the transcript is the same object: see ReplyItem's deferred value. */
const Blocks = memo(OutputBlocks);

/**
 * The run's reply at its place: streaming as it arrives, as the stream viewer shows it (the same blocks, from the
 * same transcript). Deferred: the viewer beside it has the frame first, and this copy catches up when there is
 * time, so a firehose costs the window no more than it did before the region (the renderer bench).
 */
export function ReplyItem({ runId, n, a }: { runId: string; n: number; a: MessageActions }) {
  const transcript = useDeferredValue(useAppStore((s) => s.runs[runId]?.transcript));
  const live = useAppStore((s) => s.runs[runId]?.status !== 'done');
  if (!transcript) return null;
  const copy = () =>
    transcript.blocks.flatMap((b) => (b.kind === 'text' || b.kind === 'refusal' ? [b.text] : [])).join('\n\n');
  return (
    <article className="msg role-assistant reply" aria-label={`Message ${n}, assistant${live ? ', arriving' : ''}`}>
      <header className="msg-head">
        <span className="msg-role">assistant{live ? ' · arriving…' : ''}</span>
        <Actions n={n} text={copy} a={a} />
      </header>
      <OutputBoundary text={copy} resetKey={transcript}>
        <Blocks transcript={transcript} live={live} />
      </OutputBoundary>
    </article>
  );
}
