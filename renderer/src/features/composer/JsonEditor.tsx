import { useCallback, useLayoutEffect, useRef } from 'react';
import CodeMirror from '@uiw/react-codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';

const extensions = [json(), linter(jsonParseLinter()), lintGutter(), EditorView.lineWrapping];
const basicSetup = { foldGutter: true, highlightActiveLine: false };

export function JsonEditor({ value, onChange, label, minHeight = '160px' }: { value: string; onChange: (text: string) => void; label: string; minHeight?: string }) {
  // @uiw/react-codemirror rebuilds the editor's whole configuration whenever `onChange` or `basicSetup` is a new
  // object, and callers pass a fresh closure each render: every render of the composer (a run starting, its
  // status changing) cost the frame a reconfigured editor. One function for the editor's life calls the latest.
  const latest = useRef(onChange);
  useLayoutEffect(() => {
    latest.current = onChange;
  });
  const changed = useCallback((text: string) => latest.current(text), []);
  return (
    <div className="json-editor" aria-label={label}>
      <CodeMirror value={value} onChange={changed} extensions={extensions} theme="dark" minHeight={minHeight} basicSetup={basicSetup} />
    </div>
  );
}
