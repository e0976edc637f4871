import CodeMirror from '@uiw/react-codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';

const extensions = [json(), linter(jsonParseLinter()), lintGutter(), EditorView.lineWrapping];

export function JsonEditor({ value, onChange, label, minHeight = '160px' }: { value: string; onChange: (text: string) => void; label: string; minHeight?: string }) {
  return (
    <div className="json-editor" aria-label={label}>
      <CodeMirror value={value} onChange={onChange} extensions={extensions} theme="dark" minHeight={minHeight} basicSetup={{ foldGutter: true, highlightActiveLine: false }} />
    </div>
  );
}
