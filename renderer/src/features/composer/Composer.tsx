import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { ModelPicker } from '../model-picker/ModelPicker';
import { setField } from './body-fields';
import { ComposerActions, ConversationControls } from './ComposerActions';
import { ConversationView } from '../conversation/ConversationView';
import { Conversation } from './Conversation';
import { JsonEditor } from './JsonEditor';
import { Parameters } from './Parameters';
import { SystemPrompt } from './SystemPrompt';
import { ToolCalls } from './ToolCalls';
import { useToolsText } from './ToolsField';
import { FieldErrorsContext, useFieldErrors } from './field-errors';
import { useComposerBody } from './use-composer-body';
import { useComposerRun } from './use-composer-run';

/** Ctrl/Cmd+K focuses this tab's model picker (the app's shortcut list names it). */
function useModelShortcut(protocol: ProtocolId) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'k' || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return;
      const box = document.querySelector<HTMLInputElement>(
        `[data-composer="${protocol}"] input[role="combobox"][aria-label="Model"]`,
      );
      if (!box) return;
      e.preventDefault();
      box.focus();
      box.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [protocol]);
}

function Note({ protocol }: { protocol: ProtocolId }) {
  const note = useAppStore((s) => s.composers[protocol].note);
  const noteDismissed = useAppStore((s) => s.composerNoteDismissed);
  if (!note) return null;
  return (
    <p className="composer-note" role="note" aria-label="Where this request goes">
      <span>{note}</span>
      <button type="button" className="ghost small" aria-label="Dismiss note" onClick={() => noteDismissed(protocol)}>
        ×
      </button>
    </p>
  );
}

function RequestJson({ protocol }: { protocol: ProtocolId }) {
  const jsonText = useAppStore((s) => s.composers[protocol].jsonText);
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const typeJson = useAppStore((s) => s.composerJsonTyped);
  return (
    <section className="card">
      <div className="card-head">
        <span className="label">Request body (JSON) — unknown fields are sent as typed</span>
      </div>
      <JsonEditor label="Request JSON" value={jsonText} onChange={(t) => typeJson(protocol, t)} />
      {jsonError && (
        <p className="field-error" role="alert">
          Invalid JSON: {jsonError}. The last valid body is kept; sending is off and the form is read-only until this
          parses, so nothing typed here is lost.
        </p>
      )}
    </section>
  );
}

export function Composer({ protocol }: { protocol: ProtocolId }) {
  const { body, set } = useComposerBody(protocol);
  // While the JSON does not parse, a form edit would rewrite it from the last valid body and lose what was typed there.
  const formLocked = useAppStore((s) => !!s.composers[protocol].jsonError);
  const tools = useToolsText(protocol);
  const fields = useFieldErrors();
  const run = useComposerRun(protocol, tools.error, fields.blocked);
  useModelShortcut(protocol);
  // Stable for the Conversation region, which then re-renders for its own state only, not for every keystroke.
  const runRef = useRef(run);
  useLayoutEffect(() => {
    runRef.current = run;
  });
  const regenerate = useCallback((from?: number) => void runRef.current.regenerate(from), []);
  const sendNow = useCallback(() => void runRef.current.send(), []);
  const model = typeof body.model === 'string' ? body.model : '';
  return (
    <div
      className="composer"
      data-composer={protocol}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void run.send();
        }
      }}
    >
      <div className="composer-top">
        <Note protocol={protocol} />
        <fieldset className="form-fields" disabled={formLocked}>
          <ModelPicker value={model} onChange={(m) => set(setField(body, 'model', m))} />
        </fieldset>
        <ConversationControls protocol={protocol} running={run.running} />
      </div>
      <div className="composer-scroll">
        <ConversationView
          protocol={protocol}
          busy={!!run.blockedReason || run.running || run.starting}
          onRegenerate={regenerate}
          onSend={sendNow}
        />
        <fieldset className="form-fields" disabled={formLocked} aria-label="Request form">
          <SystemPrompt protocol={protocol} />
          <Conversation protocol={protocol} />
          {run.pending.length > 0 && run.verdict && (
            <ToolCalls
              key={run.ownRunId}
              pending={run.pending}
              disabled={run.running || run.starting || !!run.blockedReason}
              onSend={run.sendToolResults}
            />
          )}
          <FieldErrorsContext value={fields.report}>
            <Parameters protocol={protocol} tools={tools} />
          </FieldErrorsContext>
        </fieldset>
        <RequestJson protocol={protocol} />
      </div>
      <ComposerActions protocol={protocol} run={run} />
    </div>
  );
}
