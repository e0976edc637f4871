import { useEffect, useRef, useState, type ReactNode } from 'react';
import { copyText } from '../features/stream-viewer/format';

/** How long a Copy button says "Copied" before it reads as it did. */
export const COPIED_MS = 1500;

/**
 * Every Copy button in the app: copies what `text()` gives at the click, then reads "Copied" for a moment and
 * says so to a screen reader (a polite live region beside it), so a click is never met with nothing.
 */
export function CopyButton({
  text,
  label,
  className,
  disabled,
  children = 'Copy',
}: {
  text: () => string;
  /** The accessible name, when the visible "Copy" needs more words to say what it copies. */
  label?: string;
  className?: string;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    await copyText(text());
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };
  return (
    <>
      <button type="button" className={className} aria-label={label} disabled={disabled} onClick={() => void copy()}>
        {copied ? 'Copied' : children}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </>
  );
}
