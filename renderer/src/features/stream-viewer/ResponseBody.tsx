import { memo, useMemo } from 'react';
import { RESULT_BODY_CAP } from '../../../../shared/contract';
import { bytes, indentJson, livePieces } from './format';
import { CopyButton } from '../../lib/CopyButton';

/** Above this, re-indenting and laying out every line would hold the Ledger up for a noticeable moment. */
export const INDENT_LIMIT = 512 * 1024;

const Piece = memo(function Piece({ text }: { text: string }) {
  return <span className="piece">{text}</span>;
});

/**
 * `rawBody`: the body as the core kept it; `received`: the bytes that arrived (metrics.bytes), absent while the
 * run is going; `streamed`: the body was an event stream, kept as events instead.
 */
export const ResponseBody = memo(function ResponseBody({
  rawBody,
  received,
  streamed,
  onShowEvents,
}: {
  rawBody?: string;
  received?: number;
  streamed: boolean;
  onShowEvents?: () => void;
}) {
  const view = useMemo(() => {
    if (rawBody === undefined) return undefined;
    const size = new TextEncoder().encode(rawBody).length;
    const large = rawBody.length > INDENT_LIMIT;
    const indented = large ? undefined : indentJson(rawBody);
    // The result does not say whether the core cut the body: it was cut when less was kept than arrived, unless
    // scrubbing the key shortened it (nothing lost then) and it is under the cap.
    const atCap = rawBody.length >= RESULT_BODY_CAP;
    const capped = received === undefined ? atCap : received > size && (atCap || !rawBody.includes('[redacted]'));
    return { size, large, indented, capped, pieces: livePieces(indented ?? rawBody) };
  }, [rawBody, received]);

  if (!view) {
    return (
      <section className="response-body" role="region" aria-label="Response body">
        <h4>Response body</h4>
        {streamed ? (
          <p className="muted">
            The body was the event stream: each event as it arrived is in the Events tab.{' '}
            {onShowEvents && (
              <button type="button" className="ghost small" onClick={onShowEvents}>
                Show events
              </button>
            )}
          </p>
        ) : received === undefined ? (
          <p className="muted">Not received yet.</p>
        ) : (
          <p className="muted">None kept: the run ended before the body was read.</p>
        )}
      </section>
    );
  }
  return (
    <section className="response-body" role="region" aria-label="Response body">
      <div className="response-body-head">
        <h4>Response body</h4>
        <span className="muted small">
          {bytes(view.size)}
          {view.indented !== undefined
            ? ' · JSON, re-indented'
            : view.large
              ? ' · shown as received (too large to re-indent)'
              : ' · text'}
        </span>
        <CopyButton className="ghost small" label="Copy response body" text={() => rawBody!} />
      </div>
      {view.capped && (
        <p className="capped small" role="note">
          Capped: showing the first {bytes(view.size)}
          {received !== undefined && received > view.size ? ` of ${bytes(received)} received` : ''}; the rest was not
          kept.
        </p>
      )}
      {rawBody === '' ? (
        <p className="muted">Empty.</p>
      ) : (
        <pre className="mono body">
          {view.pieces.map((piece, i) => (
            <Piece key={i} text={piece} />
          ))}
        </pre>
      )}
    </section>
  );
});
