import { sizeText } from '../../../../shared/documents';
import type { DocumentView } from './document-parts';

/** A type a person reads: "PDF", "text", or the media type itself. */
function typeText(mediaType: string): string {
  if (mediaType === 'application/pdf') return 'PDF';
  if (mediaType === 'text/plain') return 'text';
  return mediaType;
}

/** A document attached to a turn: its name, type and size, and a button that takes it out of the turn. */
export function AttachmentChip({ doc, label, onRemove }: { doc: DocumentView; label: string; onRemove: () => void }) {
  const size = doc.bytes ? ` · ${sizeText(doc.bytes)}` : '';
  return (
    <span className="doc-chip small" role="group" aria-label={`${label}: ${doc.name}`}>
      <span className="doc-name">{doc.name}</span>
      <span className="muted">
        {' · '}
        {typeText(doc.mediaType)}
        {size}
      </span>
      <button type="button" className="ghost small" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>
        ✕
      </button>
    </span>
  );
}
