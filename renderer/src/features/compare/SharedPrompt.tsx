import { useState } from 'react';
import { PROTOCOL_IDS } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { MAX_COMPARE_COLUMNS, runAllBlocked } from '../../store/compare-slice';
import { getSystem, getTurns, setField, setSystem, setTurnText } from '../composer/body-fields';
import { JsonEditor } from '../composer/JsonEditor';
import { usePresetSave } from '../library/use-preset-save';
import { modelsLayout, protocolLayout, type Layout } from './default-columns';

/** The active profile's models, as the quick layouts read them. */
function useProfileModels() {
  const profileId = useAppStore((s) => s.profiles?.activeId ?? '');
  const list = useAppStore((s) => s.models[profileId]);
  const results = useAppStore((s) => s.capabilities[profileId]?.results);
  const error = list?.error && !list.models.length ? list.error.message : undefined;
  return { profileId, models: list?.models, results, error };
}

/** "Same model, three protocols" and "Same protocol, N models": columns from the active profile's list. */
function QuickLayouts() {
  const profile = useProfileModels();
  const first = useAppStore((s) => s.compareColumns[0]);
  const setColumns = useAppStore((s) => s.compareColumnsChanged);
  const [note, setNote] = useState<string>();
  const apply = (layout: Layout) => {
    setNote(layout.note);
    if (layout.columns) setColumns(layout.columns);
  };
  return (
    <>
      <div className="card-head">
        <span className="label">Shared prompt — written once, translated into each column's protocol</span>
        <span className="row">
          <button type="button" onClick={() => apply(protocolLayout(profile, PROTOCOL_IDS, first?.model))}>
            Same model, three protocols
          </button>
          <button type="button" onClick={() => apply(modelsLayout(profile, first?.protocol ?? 'messages'))}>
            Same protocol, N models
          </button>
        </span>
      </div>
      {note && (
        <p role="status" aria-label="Layout note" className="note">
          {note}
        </p>
      )}
    </>
  );
}

/** System prompt, user turn, max_tokens and stream: each in its own grid cell, so no control covers another. */
function PromptFields() {
  const body = useAppStore((s) => s.compareBody);
  const editBody = useAppStore((s) => s.compareBodyEdited);
  const system = getSystem('messages', body);
  const turns = getTurns('messages', body);
  const last = turns.length - 1;
  return (
    <div className="compare-prompt-grid">
      <label>
        <span className="label">System prompt</span>
        <textarea
          aria-label="Shared system prompt"
          rows={2}
          value={system.text}
          disabled={!system.editable}
          onChange={(e) => editBody(setSystem('messages', body, e.target.value))}
        />
      </label>
      <label>
        <span className="label">User turn</span>
        <textarea
          aria-label="Shared user turn"
          rows={2}
          value={turns[last]?.text ?? ''}
          onChange={(e) => editBody(setTurnText('messages', body, last, e.target.value))}
        />
      </label>
      <label className="max-tokens">
        <span className="label">max_tokens</span>
        <input
          aria-label="Shared max_tokens"
          inputMode="numeric"
          value={typeof body.max_tokens === 'number' ? String(body.max_tokens) : ''}
          onChange={(e) => editBody(setField(body, 'max_tokens', Number(e.target.value) || undefined))}
        />
      </label>
      <label className="inline stream-toggle">
        <input
          type="checkbox"
          checked={body.stream === true}
          onChange={(e) => editBody(setField(body, 'stream', e.target.checked))}
        />{' '}
        stream
      </label>
    </div>
  );
}

/** Save the whole comparison (prompt and columns) as a preset. */
function SaveComparison() {
  const body = useAppStore((s) => s.compareBody);
  const columns = useAppStore((s) => s.compareColumns);
  const [name, setName] = useState('');
  const saving = usePresetSave(() => undefined);
  const comparison = () => ({
    name,
    protocol: 'messages' as const,
    body,
    stream: body.stream === true,
    compare: { columns },
    tags: ['comparison'],
  });
  return (
    <>
      <input
        aria-label="Comparison name"
        placeholder="comparison name"
        value={name}
        aria-invalid={!!saving.clash}
        onChange={(e) => {
          setName(e.target.value);
          saving.reset();
        }}
      />
      <button type="button" disabled={!name.trim()} onClick={() => void saving.save(comparison())}>
        Save comparison
      </button>
      {saving.message && <span className="note">{saving.message}</span>}
      {saving.clash && (
        <button type="button" onClick={() => void saving.replace(comparison())}>
          Replace it
        </button>
      )}
    </>
  );
}

/** Run all, + Column and Save comparison, with why Run all is off when it is. */
function PromptActions() {
  const profileId = useAppStore((s) => s.profiles?.activeId ?? '');
  const count = useAppStore((s) => s.compareColumns.length);
  const last = useAppStore((s) => s.compareColumns[s.compareColumns.length - 1]);
  const blocked = useAppStore(runAllBlocked);
  // The JSON error is shown under the editor already.
  const jsonBlocked = useAppStore((s) => !!s.compareJsonError);
  const runAll = useAppStore((s) => s.compareRunAllRequested);
  const addColumn = useAppStore((s) => s.compareColumnAdded);
  return (
    <>
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={!!blocked}
          title="Ctrl/Cmd+Shift+Enter"
          aria-keyshortcuts="Control+Shift+Enter Meta+Shift+Enter"
          onClick={() => void runAll()}
        >
          Run all
        </button>
        <button
          type="button"
          disabled={count >= MAX_COMPARE_COLUMNS}
          onClick={() =>
            addColumn({ profileId: last?.profileId || profileId, protocol: 'chat', model: last?.model ?? '' })
          }
        >
          + Column
        </button>
        <div className="spacer" />
        <SaveComparison />
      </div>
      {blocked && !jsonBlocked && (
        <p className="note" role="status" aria-label="Run all blocked">
          {blocked}
        </p>
      )}
    </>
  );
}

/** The shared prompt, written once in the Messages shape and translated into each column's protocol. */
export function SharedPrompt() {
  const jsonText = useAppStore((s) => s.compareJsonText);
  const jsonError = useAppStore((s) => s.compareJsonError);
  const jsonTyped = useAppStore((s) => s.compareJsonTyped);
  return (
    <section className="compare-prompt card">
      <QuickLayouts />
      <PromptFields />
      <details>
        <summary className="small">The shared prompt as JSON (Messages shape: tools, thinking, turns…)</summary>
        <JsonEditor label="Shared prompt JSON" minHeight="100px" value={jsonText} onChange={jsonTyped} />
        {jsonError && <p className="field-error">{jsonError}</p>}
      </details>
      <PromptActions />
    </section>
  );
}
