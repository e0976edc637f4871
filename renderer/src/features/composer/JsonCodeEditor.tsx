import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ExternalChange, useCodeMirror } from '@uiw/react-codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useAppStore } from '../../store';
import { selectEffectiveTheme } from '../../store/settings-slice';
import { DEFAULT_MIN_HEIGHT, type JsonEditorProps } from './JsonEditor';

// Ctrl/Cmd+Enter is the app's Send (the key goes on to the composer): the editor's own binding inserted a blank
// line into the request as it went out.
const sendKey = Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => true }]));
const extensions = [json(), linter(jsonParseLinter()), lintGutter(), EditorView.lineWrapping, sendKey];
const basicSetup = { foldGutter: true, highlightActiveLine: false };

/** The JSON editor (CodeMirror): a chunk of its own, loaded through JsonEditor.tsx. */
export function JsonCodeEditor({ value, onChange, label, minHeight = DEFAULT_MIN_HEIGHT }: JsonEditorProps) {
  // @uiw/react-codemirror rebuilds the editor's whole configuration whenever `onChange` or `basicSetup` is a new
  // object, and callers pass a fresh closure each render: every render of the composer (a run starting, its
  // status changing) cost the frame a reconfigured editor. One function for the editor's life calls the latest.
  const latest = useRef(onChange);
  useLayoutEffect(() => {
    latest.current = onChange;
  });
  const changed = useCallback((text: string) => latest.current(text), []);
  const [created, setCreated] = useState(false);
  // The library gets the value only to create the editor; after that it is synced below, at once. Within 200 ms
  // of a keystroke the library holds back a value from outside (a form edit) and applies it later, and if the
  // user typed again meanwhile it then wrote that stale value over the editor: the editor showed a body that was
  // not the one sent. Typing comes back as the same text (the store keeps it as typed), so only edits from
  // outside dispatch here.
  // The app's effective theme (light, dark, or the system's): the editor follows a switch at once.
  const theme = useAppStore(selectEffectiveTheme);
  // The name goes on the editable element itself (role textbox), where a screen reader lands.
  const named = useMemo(() => [...extensions, EditorView.contentAttributes.of({ 'aria-label': label })], [label]);
  const { setContainer, view } = useCodeMirror({
    value: created ? undefined : value,
    onCreateEditor: () => setCreated(true),
    onChange: changed,
    extensions: named,
    theme,
    minHeight,
    basicSetup,
  });
  useLayoutEffect(() => {
    if (!view) return;
    const doc = view.state.doc.toString();
    if (value !== doc)
      view.dispatch({ changes: { from: 0, to: doc.length, insert: value }, annotations: [ExternalChange.of(true)] });
  }, [value, view]);
  return <div className={`json-editor cm-theme-${theme}`} ref={setContainer} />;
}
