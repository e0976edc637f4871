import { useRef, type ComponentProps } from 'react';
import Markdown from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../../lib/CopyButton';

/**
 * rehype-highlight registers every common grammar each time a processor is made, once per block rendered: made
 * once here, its transform serves every block (docs/security.md §13, the per-10-KB budget).
 */
const highlight = rehypeHighlight();
const REHYPE = [() => highlight];

/** A fenced code block: highlighted (rehype-highlight, by its language tag), with a copy button of its own. */
function CodeBlock({ node: _node, children, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="code-block">
      <CopyButton className="ghost small copy-code" label="Copy code" text={() => ref.current?.textContent ?? ''} />
      <pre ref={ref} {...rest}>
        {children}
      </pre>
    </div>
  );
}
/**
 * A link opens in a new tab (the browser host) or, after the desktop app asks, in the OS browser: a plain click
 * must never take the window away from the app (docs/security.md §10).
 */
function Link({ node: _node, ...rest }: ComponentProps<'a'> & { node?: unknown }) {
  return <a {...rest} target="_blank" rel="noopener noreferrer" />;
}
const COMPONENTS = { pre: CodeBlock, a: Link };

/**
 * One block of a reply rendered as Markdown: its own chunk with the Markdown parser and the highlighter, loaded
 * when the first reply arrives (Output.tsx; docs/architecture.md §9).
 *
 * No `skipHtml` and no rehype-raw: react-markdown then turns raw HTML into text, so `<div>` or `Array<string>`
 * in a reply shows as written; it is never rendered and never dropped.
 */
export function MarkdownView({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={REHYPE} components={COMPONENTS}>
      {text}
    </Markdown>
  );
}
