import { useEffect, useRef, useState } from 'react';
import type { CurlImport, ExportLanguage } from '../../../../shared/contract';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { useBodyToSend } from '../composer/body-to-send';
import { CopyButton } from '../../lib/CopyButton';

const LANGS: [ExportLanguage, string][] = [
  ['curl', 'curl'],
  ['python', 'Python (official SDK)'],
  ['typescript', 'TypeScript (official SDK)'],
  ['http', 'Raw HTTP'],
];

/** A recorded run: its request is exported from its ledger, exactly as it was sent. */
export interface RecordedRequest {
  runId: string;
  profileName: string;
}

/**
 * Export a request as code (key written <API_KEY>), or import a pasted curl command. From a composer tab the
 * request is what Send would send now (the "Message" box included); with `recorded`, a run from History as
 * it was sent (export only).
 */
export function CodeDialog({
  protocol,
  recorded,
  onClose: close,
}: {
  protocol: ProtocolId;
  recorded?: RecordedRequest;
  onClose: () => void;
}) {
  const composerBody = useBodyToSend(protocol);
  const activeProfileId = useAppStore((s) => s.profiles?.activeId);
  const profileId = activeProfileId;
  const codeExportRequested = useAppStore((s) => s.codeExportRequested);
  const curlImportRequested = useAppStore((s) => s.curlImportRequested);
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
    if (mode !== 'export' || (!recorded && !profileId)) return;
    let current = true;
    const source = recorded ? { runId: recorded.runId } : { profileId: profileId!, protocol, body: composerBody };
    const request = codeExportRequested(lang, source);
    void request.then((r) => {
      if (!current) return;
      if (r.ok) {
        setCode(r.value.code);
        setError(undefined);
      } else setError(r.error.message);
    });
    return () => {
      current = false;
    };
  }, [mode, lang, profileId, protocol, composerBody, recorded, codeExportRequested]);

  return (
    <dialog ref={dialog} className="connections code-dialog" aria-label="Code" onClose={onClose} onCancel={onClose}>
      <div className="dialog-head">
        <div className="pane-tabs" role="tablist">
          <button
            type="button"
            role="tab"
            aria-selected={mode === 'export'}
            className={mode === 'export' ? 'selected' : ''}
            onClick={() => setMode('export')}
          >
            Export as code
          </button>
          {!recorded && (
            <button
              type="button"
              role="tab"
              aria-selected={mode === 'import'}
              className={mode === 'import' ? 'selected' : ''}
              onClick={() => setMode('import')}
            >
              Import from curl
            </button>
          )}
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
              <span className="muted small">
                {recorded
                  ? `Run ${recorded.runId} as it was sent (its URL and headers, profile ${recorded.profileName}). `
                  : ''}
                The key is written &lt;API_KEY&gt;: paste yours where you run it.
              </span>
              <div className="spacer" />
              <CopyButton text={() => code} />
            </div>
            <pre className="mono code-out" aria-label="Exported code">
              {code}
            </pre>
          </>
        ) : (
          <>
            <textarea
              aria-label="curl command"
              className="mono"
              rows={10}
              placeholder="curl https://gateway.example.com/v1/messages -H … -d '{…}'"
              value={curl}
              onChange={(e) => setCurl(e.target.value)}
            />
            <div className="row">
              <button
                type="button"
                className="primary"
                onClick={() =>
                  void (async () => {
                    const r = await curlImportRequested(curl);
                    if (!r.ok) {
                      setImported(undefined);
                      return setError(r.error.message);
                    }
                    setError(undefined);
                    setImported(r.value);
                  })()
                }
              >
                Import
              </button>
            </div>
            {imported && (
              <div className="note" role="status">
                {imported.protocol && imported.body
                  ? `Loaded into the ${imported.protocol} tab (${imported.method} ${imported.path}); it opens when you close this.`
                  : `${imported.method} ${imported.path}: nothing to load.`}
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
