import { memo, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { Block, Transcript } from '../../../../shared/protocols/types';
import { livePieces } from './format';
import { markdownBlocks } from './markdown-blocks';
import { tooCostly } from './markdown-limits';
import { OutputBoundary } from './OutputBoundary';
import { CopyButton } from '../../lib/CopyButton';
import { afterStartUp, lazyPart } from '../../lib/lazy-part';

/** A finished reply opened whole and longer than this is shown as text unless asked: parsing it would block a frame. */
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

/** A block longer than this is shown as plain text: parsing it again on every batch would stall the UI. */
const BLOCK_LIMIT = 8_000;
/**
 * The open block of a live reply is parsed again on every batch, so it is rendered as Markdown only while it is
 * short; past this it streams as text and is rendered once it ends (the renderer bench's frame budget).
 */
const OPEN_BLOCK_LIMIT = 2_000;
/**
 * The Markdown parser and highlighter are a chunk of their own, fetched once the window has started (or when a
 * reply arrives first): until then the block shows as the plain text it is, in the place it will take. Fetched
 * ahead so a first reply does not flash its Markdown source.
 */
const Markdown = lazyPart(
  () => import('./MarkdownView').then((m) => m.MarkdownView),
  'Markdown rendering',
  ({ text }, failure) => (
    <div className="md-pending">
      {failure}
      {text}
    </div>
  ),
);

// A failed fetch is forgotten by the part, so the reply that needs it fetches again and shows the Retry.
void afterStartUp.then(() => Markdown.preload()).catch(() => undefined);

/** `open`: the last block of a live reply, still growing; an ended block this long can be rendered on request. */
const MdBlock = memo(function MdBlock({ text, open }: { text: string; open: boolean }) {
  const [force, setForce] = useState(false);
  const long = text.length > (open ? OPEN_BLOCK_LIMIT : BLOCK_LIMIT) && !force;
  // Depth and table size, not length, decide whether parsing is safe (docs/security.md §13): no button to force
  // it. Read only for a block about to be parsed, so a long open block costs nothing more per batch.
  const costly = useMemo(() => (long ? undefined : tooCostly(text)), [long, text]);
  if (long) {
    return (
      <PlainPieces text={text} live={open}>
        {open ? undefined : (
          <button type="button" className="ghost small" onClick={() => setForce(true)}>
            Render as markdown ({Math.round(text.length / 1000)}k characters)
          </button>
        )}
      </PlainPieces>
    );
  }
  if (costly) {
    return (
      <PlainPieces text={text} live={open}>
        <p className="muted small md-note" role="note">
          Shown as text: {costly}
        </p>
      </PlainPieces>
    );
  }
  return (
    <OutputBoundary text={() => text} resetKey={text}>
      <section className="md-block">
        <Markdown text={text} />
      </section>
    </OutputBoundary>
  );
});

/**
 * The blocks of a text that grows at its end: only the last block is split again, from where it starts (always
 * outside a code fence), so a batch costs the open block, not the whole reply.
 */
function useGrowingBlocks(text: string): string[] {
  // State from the previous render (React's own pattern for it): a new text re-runs this component at once,
  // before its children render, and the second pass finds the blocks already split.
  const [last, setLast] = useState<{ text: string; blocks: string[] }>({ text: '', blocks: [] });
  if (last.text === text) return last.blocks;
  let blocks: string[];
  if (last.blocks.length && text.startsWith(last.text)) {
    const closed = last.blocks.slice(0, -1);
    const from = last.text.length - last.blocks[last.blocks.length - 1].length;
    blocks = closed.concat(markdownBlocks(text.slice(from)));
  } else blocks = markdownBlocks(text);
  setLast({ text, blocks });
  return blocks;
}

/** Markdown block by block, live or finished: the end of a run keeps every block's DOM (see useGrowingBlocks). */
function MarkdownBlocks({ text, live }: { text: string; live: boolean }) {
  const blocks = useGrowingBlocks(text);
  return (
    <div className="text markdown">
      {blocks.map((b, i) => (
        // Only the last block of a live reply is open: the ended ones keep their props, and their render.
        <MdBlock key={i} text={b} open={live && i === blocks.length - 1} />
      ))}
    </div>
  );
}

const TextBlock = memo(function TextBlock({ text, live }: { text: string; live: boolean }) {
  const [forceMarkdown, setForceMarkdown] = useState(false);
  // A reply that streamed here was rendered block by block as it came; one opened whole (History) and long
  // would be parsed in one go, a long task: it is shown as text unless asked.
  const [streamed] = useState(live);
  if (!streamed && text.length > MARKDOWN_LIMIT && !forceMarkdown) {
    return (
      <PlainPieces text={text} live={false}>
        <button type="button" className="ghost small" onClick={() => setForceMarkdown(true)}>
          Render as markdown ({Math.round(text.length / 1000)}k characters)
        </button>
      </PlainPieces>
    );
  }
  return <MarkdownBlocks text={text} live={live} />;
});

/** The reply's text and refusals as the model wrote them (Markdown). */
function markdownOf(transcript: Transcript): string {
  return transcript.blocks
    .filter((b) => b.kind === 'text' || b.kind === 'refusal')
    .map((b) => (b as { text: string }).text)
    .join('\n\n');
}

/** The reply's text as the model wrote it (Markdown), and as read on screen (the rendered text). */
function CopyOutput({ transcript, region }: { transcript: Transcript; region: RefObject<HTMLDivElement | null> }) {
  const md = () => markdownOf(transcript);
  const asText = () =>
    [...(region.current?.querySelectorAll<HTMLElement>(':scope > .text') ?? [])]
      .map((el) => (el.innerText ?? el.textContent ?? '').trim())
      .join('\n\n');
  return (
    <div className="output-actions">
      {/* Named by what they show (WCAG 2.5.3); the Output region around them says what they copy. */}
      <CopyButton className="ghost small" text={asText}>
        Copy text
      </CopyButton>
      <CopyButton className="ghost small" text={md}>
        Copy Markdown
      </CopyButton>
    </div>
  );
}

/** `live`: the run is still streaming; once it ended, arguments that never completed never will. */
function ToolCall({ b, live }: { b: Extract<Block, { kind: 'tool_call' }>; live: boolean }) {
  return (
    <div className="tool-call">
      <div className="tool-head">
        <span className="badge">tool call</span> <span className="mono">{b.name}</span>{' '}
        <span className="muted small mono">{b.id}</span>
        {!b.complete &&
          (live ? (
            <span className="muted small"> arguments arriving…</span>
          ) : (
            <>
              {' '}
              <span className="badge err">arguments incomplete</span>{' '}
              <span className="muted small">the run ended before they finished</span>
            </>
          ))}
      </div>
      <pre className="mono">{b.complete && b.args !== undefined ? JSON.stringify(b.args, null, 2) : b.argsText}</pre>
      {b.argsError && <p className="field-error">Arguments are not valid JSON: {b.argsError}</p>}
    </div>
  );
}

interface OutputProps {
  transcript: Transcript;
  live: boolean;
  /** What to say, once the run ended, when nothing could be shown (the viewer knows where the body went). */
  empty?: ReactNode;
}

/**
 * A run's output. Whatever throws while rendering it leaves the rest of the window working and shows the
 * output as text (docs/security.md §13); every view of a run's text (viewer, History, Compare) comes here.
 */
export function Output({ transcript, live, empty }: OutputProps) {
  const region = useRef<HTMLDivElement>(null);
  const hasText = transcript.blocks.some((b) => (b.kind === 'text' || b.kind === 'refusal') && b.text !== '');
  return (
    <div className="output" role="region" aria-label="Output" ref={region}>
      {hasText && <CopyOutput transcript={transcript} region={region} />}
      <OutputBoundary text={() => markdownOf(transcript)} resetKey={transcript}>
        <OutputBlocks transcript={transcript} live={live} empty={empty} />
      </OutputBoundary>
      {transcript.stopReason && <p className="stop-reason muted small">stop: {transcript.stopReason}</p>}
    </div>
  );
}

export function OutputBlocks({ transcript, live, empty }: OutputProps) {
  return (
    <>
      {transcript.blocks.length === 0 && (
        <p className="muted empty">{live ? 'Waiting for the first token…' : (empty ?? 'No output.')}</p>
      )}
      {transcript.blocks.map((b, i) => {
        const last = i === transcript.blocks.length - 1;
        if (b.kind === 'text') return <TextBlock key={i} text={b.text} live={live && last} />;
        if (b.kind === 'thinking')
          return (
            <details key={i} className="thinking" open={live && last}>
              <summary>
                {b.redacted ? 'Redacted thinking' : 'Thinking'}
                {b.signature ? ' · signed' : ''}
              </summary>
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
    </>
  );
}
