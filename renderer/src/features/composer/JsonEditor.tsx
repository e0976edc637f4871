import { afterStartUp, lazyPart } from '../../lib/lazy-part';

export interface JsonEditorProps {
  value: string;
  onChange: (text: string) => void;
  label: string;
  minHeight?: string;
}

export const DEFAULT_MIN_HEIGHT = '160px';

/**
 * The JSON editor. CodeMirror is a chunk of its own (docs/architecture.md §9): the composer's form, the Message
 * box and Send work before it arrives. It sits below the form, so it is fetched once the window has started,
 * and meanwhile the body shows as read-only text in its place.
 */
export const JsonEditor = lazyPart<JsonEditorProps>(
  () => import('./JsonCodeEditor').then((m) => m.JsonCodeEditor),
  'the JSON editor',
  ({ value, minHeight = DEFAULT_MIN_HEIGHT }, failure) => (
    <div className="json-editor json-editor-pending" style={{ minHeight }}>
      {failure}
      <pre>{value}</pre>
    </div>
  ),
  afterStartUp,
);
