import { useEffect, useRef, useState } from 'react';
import type { CurlImport, ExportLanguage } from '../../../../shared/contract';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { gateway } from '../../bridge';
import { useAppStore } from '../../store';
import { copyText } from '../stream-viewer/format';

const LANGS: [ExportLanguage, string][] = [
  ['curl', 'curl'],
  ['python', 'Python (official SDK)'],
  ['typescript', 'TypeScript (official SDK)'],
  ['http', 'Raw HTTP'],
];

/** Export the current request as code (key written <API_KEY>), or import a pasted curl command. */
export function CodeDialog({ protocol, onClose: close }: { protocol: ProtocolId; onClose: () => void }) {
  const body = useAppStore((s) => s.composers[protocol].body);
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const edit = useAppStore((s) => s.composerBodyEdited);
  const tabSelected = useAppStore((s) => s.tabSelected);
  const [mode, setMode] = useState<'export' | 'import'>('export');
  const [lang, setLang] = useState<ExportLanguage>('curl');
  const [code, setCode] = useState('');
  const [curl, setCurl] = useState('');
  const [imported, setImported] = useState<CurlImport>();
  const [error, setError] = useState<string>();
  const dialog = useRef<HTMLDialogElement>(null);
  // The imported request opens in its tab once the user has read the notes (switching tabs unmounts this).
  const onClose = () => {
    close();
    if (imported?.protocol && imported.body) tabSelected(imported.protocol);
  };

  useEffect(() => dialog.current?.showModal(), []);
  useEffect(() => {
    if (mode !== 'export' || !profileId) return;
    void gateway.export.code({ profileId, protocol, body, language: lang }).then((r) => (r.ok ? setCode(r.value.code) : setError(r.error.message)));
  }, [mode, lang, profileId, protocol, body]);

  return (
    <dialog ref={dialog} className="connections code-dialog" aria-label="Code" onClose={onClose} onCancel={onClose}>
      <div className="dialog-head">
        <div className="pane-tabs" role="tablist">
          <button type="button" role="tab" aria-selected={mode === 'export'} className={mode === 'export' ? 'selected' : ''} onClick={() => setMode('export')}>
            Export as code
          </button>
          <button type="button" role="tab" aria-selected={mode === 'import'} className={mode === 'import' ? 'selected' : ''} onClick={() => setMode('import')}>
            Import from curl
          </button>
        </div>
        <button type="button" className="ghost" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      <div className="code-body">
        {mode === 'export' ? (
          <>
            <div className="row">
              <select aria-label="Language" value={lang} onChange={(e) => setLang(e.target.value as ExportLanguage)}>
                {LANGS.map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
              <span className="muted small">The key is written &lt;API_KEY&gt;: paste yours where you run it.</span>
              <div className="spacer" />
              <button type="button" onClick={() => void copyText(code)}>
                Copy
              </button>
            </div>
            <pre className="mono code-out" aria-label="Exported code">
              {code}
            </pre>
          </>
        ) : (
          <>
            <textarea aria-label="curl command" className="mono" rows={10} placeholder="curl https://gateway.example.com/v1/messages -H … -d '{…}'" value={curl} onChange={(e) => setCurl(e.target.value)} />
            <div className="row">
              <button
                type="button"
                className="primary"
                onClick={async () => {
                  const r = await gateway.import.curl({ text: curl });
                  if (!r.ok) {
                    setImported(undefined);
                    return setError(r.error.message);
                  }
                  setError(undefined);
                  setImported(r.value);
                  if (r.value.protocol && r.value.body) edit(r.value.protocol, r.value.body);
                }}
              >
                Import
              </button>
            </div>
            {imported && (
              <div className="note" role="status">
                {imported.protocol && imported.body ? `Loaded into the ${imported.protocol} tab (${imported.method} ${imported.path}); it opens when you close this.` : `${imported.method} ${imported.path}: nothing to load.`}
                {imported.notes.map((n) => (
                  <div key={n}>{n}</div>
                ))}
              </div>
            )}
          </>
        )}
        {error && <p className="field-error">{error}</p>}
      </div>
    </dialog>
  );
}
