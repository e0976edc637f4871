import { memo, useState, type ReactNode } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Block, Transcript } from '../../../../shared/protocols/types';
import { livePieces } from './format';

/** Above this, markdown parsing alone would block the UI for a frame or more: shown as text unless asked. */
const MARKDOWN_LIMIT = 20_000;

const Piece = memo(function Piece({ text }: { text: string }) {
  return <div className="piece">{text}</div>;
});

/**
 * Long plain text as blocks (see `livePieces`), live or finished: the button sits in its own slot so the end
 * of a run keeps every block's DOM and layout, where swapping to one text node holding the whole reply
 * re-flowed it all in the frame the verdict arrived.
 */
function PlainPieces({ text, live, children }: { text: string; live: boolean; children?: ReactNode }) {
  return (
    <div className={live ? 'text plain live' : 'text plain pieces'}>
      {children ?? null}
      {livePieces(text).map((piece, i) => (
        <Piece key={i} text={piece} />
      ))}
    </div>
  );
}

const TextBlock = memo(function TextBlock({ text, live }: { text: string; live: boolean }) {
  const [forceMarkdown, setForceMarkdown] = useState(false);
  // While streaming, plain text: re-parsing markdown on every batch of a long reply would stall the UI.
  if (live) return <PlainPieces text={text} live />;
  if (text.length > MARKDOWN_LIMIT && !forceMarkdown) {
    return (
      <PlainPieces text={text} live={false}>
        <button type="button" className="ghost small" onClick={() => setForceMarkdown(true)}>
          Render as markdown ({Math.round(text.length / 1000)}k characters)
        </button>
      </PlainPieces>
    );
  }
  // No `skipHtml` and no rehype-raw: react-markdown then turns raw HTML into text, so `<div>` or `Array<string>`
  // in a reply shows as written; it is never rendered and never dropped.
  return (
    <div className="text markdown">
      <Markdown remarkPlugins={[remarkGfm]}>
        {text}
      </Markdown>
    </div>
  );
});

/** `live`: the run is still streaming; once it ended, arguments that never completed never will. */
function ToolCall({ b, live }: { b: Extract<Block, { kind: 'tool_call' }>; live: boolean }) {
  return (
    <div className="tool-call">
      <div className="tool-head">
        <span className="badge">tool call</span> <span className="mono">{b.name}</span> <span className="muted small mono">{b.id}</span>
        {!b.complete &&
          (live ? (
            <span className="muted small"> arguments arriving…</span>
          ) : (
            <>
              {' '}
              <span className="badge err">arguments incomplete</span> <span className="muted small">the run ended before they finished</span>
            </>
          ))}
      </div>
      <pre className="mono">{b.complete && b.args !== undefined ? JSON.stringify(b.args, null, 2) : b.argsText}</pre>
      {b.argsError && <p className="field-error">Arguments are not valid JSON: {b.argsError}</p>}
    </div>
  );
}

/** `empty`: what to say, once the run ended, when nothing could be shown (the viewer knows where the body went). */
export function Output({ transcript, live, empty }: { transcript: Transcript; live: boolean; empty?: ReactNode }) {
  return (
    <div className="output" role="region" aria-label="Output">
      {transcript.blocks.length === 0 && <p className="muted empty">{live ? 'Waiting for the first token…' : (empty ?? 'No output.')}</p>}
      {transcript.blocks.map((b, i) => {
        const last = i === transcript.blocks.length - 1;
        if (b.kind === 'text') return <TextBlock key={i} text={b.text} live={live && last} />;
        if (b.kind === 'thinking')
          return (
            <details key={i} className="thinking" open={live && last}>
              <summary>{b.redacted ? 'Redacted thinking' : 'Thinking'}{b.signature ? ' · signed' : ''}</summary>
              <div className="text plain">{b.redacted ? '(encrypted by the provider)' : b.text}</div>
            </details>
          );
        if (b.kind === 'tool_call') return <ToolCall key={i} b={b} live={live} />;
        if (b.kind === 'refusal')
          return (
            <div key={i} className="refusal">
              <span className="badge err">refusal</span> {b.text}
            </div>
          );
        return (
          <details key={i} className="other-block">
            <summary>
              <span className="badge">{b.type}</span> (kept as sent)
            </summary>
            <pre className="mono">{JSON.stringify(b.raw, null, 2)}</pre>
          </details>
        );
      })}
      {transcript.stopReason && <p className="stop-reason muted small">stop: {transcript.stopReason}</p>}
    </div>
  );
}
