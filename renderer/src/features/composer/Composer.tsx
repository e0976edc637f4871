import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ProtocolId, Transcript } from '../../../../shared/protocols/types';
import { maxTokensField, pendingToolCalls } from '../../../../shared/protocols/compose';
import { bodyToSend } from './body-to-send';
import { useAppStore } from '../../store';
import { withToolResults } from '../../store/composer-slice';
import { ModelPicker } from '../model-picker/ModelPicker';
import { InputTokens } from '../token-counter/InputTokens';
import { SavePreset } from '../library/SavePreset';
import { CodeDialog } from '../export/CodeDialog';
import { JsonEditor } from './JsonEditor';
import { useFieldText } from './use-field-text';
import {
  addImage,
  getSystem,
  getTurns,
  numberText,
  removeImage,
  removeTurn,
  setField,
  setNested,
  setStream,
  setSystem,
  setSystemCached,
  setTurnCached,
  setTurnRole,
  setToolChoice,
  setTurnText,
  stopsKey,
  stopsText,
  systemCached,
  type Body,
} from './body-fields';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The budget "enabled (budget)" starts with (protocols.md §1.5: at least 1,024 and under max_tokens). */
const THINKING_BUDGET = 2048;

export function Composer({ protocol }: { protocol: ProtocolId }) {
  const body = useAppStore((s) => s.composers[protocol].body);
  const jsonText = useAppStore((s) => s.composers[protocol].jsonText);
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const warnings = useAppStore((s) => s.composers[protocol].warnings);
  const note = useAppStore((s) => s.composers[protocol].note);
  const noteDismissed = useAppStore((s) => s.composerNoteDismissed);
  const activeRunId = useAppStore((s) => s.composers[protocol].activeRunId);
  const continuedRunId = useAppStore((s) => s.composers[protocol].continuedRunId);
  const detachedRunId = useAppStore((s) => s.composers[protocol].detachedRunId);
  // The run this body was sent as; after another body was loaded, the active run's reply belongs to another conversation.
  const ownRunId = activeRunId !== detachedRunId ? activeRunId : undefined;
  /** The request the last reply answered, as sent: whether it was stored decides Continue by id, not the form now. */
  const lastSentBody = useAppStore((s) => (ownRunId ? s.runs[ownRunId]?.ledger?.body : undefined));
  const runStatus = useAppStore((s) => (activeRunId ? s.runs[activeRunId]?.status : undefined));
  const lastTranscript = useAppStore((s) => (ownRunId ? s.runs[ownRunId]?.result?.transcript : undefined));
  const lastVerdict = useAppStore((s) => (ownRunId ? s.runs[ownRunId]?.result?.verdict : undefined));
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const edit = useAppStore((s) => s.composerBodyEdited);
  const typeJson = useAppStore((s) => s.composerJsonTyped);
  const typeDraft = useAppStore((s) => s.composerDraftTyped);
  const runStarted = useAppStore((s) => s.composerRunStarted);
  const turnContinued = useAppStore((s) => s.composerTurnContinued);
  const chainedById = useAppStore((s) => s.composerChainedById);
  const toolResultsSent = useAppStore((s) => s.composerToolResultsSent);
  const runStartRequested = useAppStore((s) => s.runStartRequested);
  const runCancelRequested = useAppStore((s) => s.runCancelRequested);
  const [sendError, setSendError] = useState<string>();
  // By position, not id: calls may share an id or have none (the fold warns), and each still gets its own box.
  const [toolResults, setToolResults] = useState<string[]>([]);
  const [toolsText, setToolsText] = useState<string>();
  /** The tools this box last put in the body: tools from anywhere else (JSON editor, preset, History) replace its text. */
  const toolsWritten = useRef<unknown>(undefined);
  const [codeOpen, setCodeOpen] = useState(false);
  // A ref, not only state: a second click can arrive before React re-renders the disabled button.
  const startPending = useRef(false);
  const [starting, setStarting] = useState(false);

  const set = useCallback((next: Body) => edit(protocol, next), [edit, protocol]);
  const running = runStatus === 'starting' || runStatus === 'streaming';
  const model = typeof body.model === 'string' ? body.model : '';
  const maxField = maxTokensField(protocol);
  const thinking = isObj(body.thinking) ? body.thinking : undefined;
  const maxTokens = useFieldText(body[maxField], numberText, (v) => set(setField(body, maxField, v)));
  const temperature = useFieldText(body.temperature, numberText, (v) => set(setField(body, 'temperature', v)));
  const topP = useFieldText(body.top_p, numberText, (v) => set(setField(body, 'top_p', v)));
  const budget = useFieldText(thinking?.budget_tokens, numberText, (v) => set(setNested(body, 'thinking', 'budget_tokens', v)));
  const stops = useFieldText(body[stopsKey(protocol)], stopsText, (v) => set(setField(body, stopsKey(protocol), v)));
  const system = getSystem(protocol, body);
  const turns = getTurns(protocol, body);
  const pending = useMemo(() => (lastTranscript ? pendingToolCalls(lastTranscript) : []), [lastTranscript]);
  const canContinue = !!lastTranscript && lastVerdict !== undefined && continuedRunId !== ownRunId && lastTranscript.blocks.length > 0;
  // While the JSON does not parse, a form edit would rewrite it from the last valid body and lose what was typed there.
  const formLocked = !!jsonError;
  const tools = Array.isArray(body.tools) ? body.tools : undefined;
  const toolsShown = toolsText ?? (tools ? JSON.stringify(tools, null, 2) : '');
  let toolsError: string | undefined;
  if (toolsText !== undefined && toolsText.trim()) {
    try {
      if (!Array.isArray(JSON.parse(toolsText))) toolsError = 'tools must be a JSON array';
    } catch (e) {
      toolsError = (e as Error).message;
    }
  }
  // Half-typed tools would go out as the last tools that parsed, which is not what the box shows.
  const blockedReason = jsonError ? 'Fix the JSON before sending.' : toolsError ? 'Fix the tools JSON before sending.' : !profileId ? 'No profile.' : !model ? 'Pick a model first.' : undefined;

  /** Starts a run of `toSend`; its id once the core took it, undefined (and the error shown) when it did not. */
  const start = async (toSend: Body): Promise<string | undefined> => {
    startPending.current = true;
    setStarting(true);
    setSendError(undefined);
    try {
      const r = await runStartRequested({ profileId: profileId!, protocol, body: toSend, warnings, origin: 'composer' });
      if (r.error) setSendError(r.error.message);
      else if (r.runId) runStarted(protocol, r.runId);
      return r.runId;
    } catch (err) {
      setSendError(err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      startPending.current = false;
      setStarting(false);
    }
  };

  const send = async () => {
    if (blockedReason || running || startPending.current) return;
    const toSend = bodyToSend(protocol, body, draft);
    if (toSend !== body) {
      set(toSend);
      typeDraft(protocol, '');
    }
    await start(toSend);
  };

  const focusMessage = () => setTimeout(() => document.querySelector<HTMLTextAreaElement>(`[data-composer="${protocol}"] textarea[aria-label="Message"]`)?.focus(), 0);
  const continueTurn = (t: Transcript) => {
    if (!ownRunId) return;
    turnContinued(protocol, ownRunId, t);
    focusMessage();
  };
  const continueById = (id: string) => {
    if (!ownRunId) return;
    chainedById(protocol, ownRunId, id);
    focusMessage();
  };

  const sendToolResults = async () => {
    if (!lastTranscript || !ownRunId || blockedReason || running || startPending.current) return;
    const answered = ownRunId;
    const results = pending.map((c, i) => ({ id: c.id, name: c.name, output: toolResults[i] ?? '' }));
    const next = withToolResults(protocol, useAppStore.getState().composers[protocol], answered, lastTranscript, results);
    if (!(await start(next))) return;
    toolResultsSent(protocol, answered, next);
    setToolResults([]);
  };

  useEffect(() => {
    if (body.tools !== toolsWritten.current) {
      toolsWritten.current = body.tools;
      setToolsText(undefined);
    }
  }, [body.tools]);
  const lastStored = useMemo(() => {
    try {
      return (JSON.parse(lastSentBody ?? '{}') as { store?: unknown }).store !== false;
    } catch {
      return true;
    }
  }, [lastSentBody]);
  const reasoning = isObj(body.reasoning) ? body.reasoning : undefined;
  const toolChoiceValue = protocol === 'messages' ? (isObj(body.tool_choice) ? String(body.tool_choice.type) : '') : typeof body.tool_choice === 'string' ? body.tool_choice : isObj(body.tool_choice) ? 'function' : '';

  return (
    <div
      className="composer"
      data-composer={protocol}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void send();
        }
      }}
    >
      <div className="composer-top">
        {note && (
          <p className="composer-note" role="note" aria-label="Where this request goes">
            <span>{note}</span>
            <button type="button" className="ghost small" aria-label="Dismiss note" onClick={() => noteDismissed(protocol)}>
              ×
            </button>
          </p>
        )}
        <fieldset className="form-fields" disabled={formLocked}>
          <ModelPicker value={model} onChange={(m) => set(setField(body, 'model', m))} />
        </fieldset>
      </div>
      <div className="composer-scroll">
        <fieldset className="form-fields" disabled={formLocked} aria-label="Request form">
          <section className="card">
            <label>
              <span className="label">{protocol === 'responses' ? 'Instructions' : 'System prompt'}</span>
              <textarea aria-label={protocol === 'responses' ? 'Instructions' : 'System prompt'} rows={2} value={system.text} disabled={!system.editable} onChange={(e) => set(setSystem(protocol, body, e.target.value))} />
            </label>
            {protocol === 'messages' && (
              <label className="inline">
                <input type="checkbox" checked={systemCached(body)} onChange={(e) => set(setSystemCached(body, e.target.checked))} /> cache_control on the system prompt
              </label>
            )}
          </section>

          <section className="card turns" aria-label="Conversation">
            <div className="card-head">
              <span className="label">Conversation</span>
              <span className="muted small">{turns.length} turn{turns.length === 1 ? '' : 's'}</span>
            </div>
            {turns.map((t, i) => (
              <div className={`turn role-${t.role}`} key={i}>
                <div className="turn-head">
                  {t.role === 'user' || t.role === 'assistant' ? (
                    <select aria-label={`Turn ${i + 1} role`} value={t.role} onChange={(e) => set(setTurnRole(protocol, body, i, e.target.value))}>
                      <option value="user">user</option>
                      <option value="assistant">assistant</option>
                    </select>
                  ) : (
                    <span className="role-tag">{t.role}</span>
                  )}
                  {protocol === 'messages' && (t.role === 'user' || t.role === 'assistant') && (
                    <label className="inline small" title="Put a cache_control breakpoint on this turn's last block">
                      <input type="checkbox" checked={!!t.cached} onChange={(e) => set(setTurnCached(body, i, e.target.checked))} /> cache
                    </label>
                  )}
                  <button type="button" className="ghost small" aria-label={`Remove turn ${i + 1}`} onClick={() => set(removeTurn(protocol, body, i))}>
                    ✕
                  </button>
                </div>
                {t.text !== undefined ? (
                  <textarea aria-label={`Turn ${i + 1} text`} rows={Math.min(6, Math.max(1, Math.ceil(t.text.length / 70)))} value={t.text} onChange={(e) => set(setTurnText(protocol, body, i, e.target.value))} />
                ) : (
                  <div className="turn-summary mono small">{t.summary}</div>
                )}
                {t.text !== undefined && t.images.length > 0 && (
                  <div className="turn-images">
                    {t.images.map((img, n) => (
                      <figure key={img.part}>
                        <img src={img.src} alt={`Turn ${i + 1} image ${n + 1}`} />
                        <button type="button" className="ghost small" aria-label={`Remove turn ${i + 1} image ${n + 1}`} onClick={() => set(removeImage(protocol, body, i, img.part))}>
                          ✕
                        </button>
                      </figure>
                    ))}
                  </div>
                )}
              </div>
            ))}
            <textarea
              aria-label="Message"
              className="draft"
              rows={3}
              placeholder="Next user turn… (Ctrl+Enter sends)"
              value={draft}
              onChange={(e) => typeDraft(protocol, e.target.value)}
            />
            <div className="row">
              <label className="ghost file-button">
                Attach image
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/gif,image/webp"
                  hidden
                  onChange={async (e) => {
                    const file = e.target.files?.[0];
                    if (!file) return;
                    const buf = new Uint8Array(await file.arrayBuffer());
                    let bin = '';
                    for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
                    const withDraft = bodyToSend(protocol, body, draft);
                    typeDraft(protocol, '');
                    set(addImage(protocol, withDraft, file.type || 'image/png', btoa(bin)));
                    e.target.value = '';
                  }}
                />
              </label>
            </div>
          </section>

          {pending.length > 0 && lastVerdict && (
            <section className="card tool-results" aria-label="Tool calls">
              <span className="label">The model called {pending.length === 1 ? 'a tool' : `${pending.length} tools`}: type each result</span>
              {pending.map((c, i) => (
                <label key={`${i}:${c.id}`}>
                  <span className="mono small">
                    {c.name}({c.argsText}) <span className="muted">id {c.id}</span>
                  </span>
                  <textarea
                    aria-label={pending.some((o, j) => j !== i && o.name === c.name) ? `Result for ${c.name} (call ${i + 1})` : `Result for ${c.name}`}
                    rows={2}
                    value={toolResults[i] ?? ''}
                    onChange={(e) => {
                      const value = e.target.value;
                      setToolResults((prev) => {
                        const next = [...prev];
                        next[i] = value;
                        return next;
                      });
                    }}
                    onKeyDown={(e) => {
                      // Here Ctrl/Cmd+Enter answers the tool calls; the composer's own shortcut would resend the old body.
                      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                        e.preventDefault();
                        e.stopPropagation();
                        void sendToolResults();
                      }
                    }}
                  />
                </label>
              ))}
              <button type="button" className="primary" disabled={running || starting || !!blockedReason} onClick={() => void sendToolResults()}>
                Send tool results
              </button>
            </section>
          )}

          <section className="card params" aria-label="Parameters">
            <div className="grid">
              <label>
                <span className="label">{maxField}</span>
                <input aria-label={maxField} inputMode="numeric" {...maxTokens.props} />
                {maxTokens.error && <span id={maxTokens.errorId} className="field-error">{maxTokens.error}</span>}
              </label>
              <label>
                <span className="label">temperature</span>
                <input aria-label="temperature" inputMode="decimal" {...temperature.props} />
                {temperature.error && <span id={temperature.errorId} className="field-error">{temperature.error}</span>}
              </label>
              <label>
                <span className="label">top_p</span>
                <input aria-label="top_p" inputMode="decimal" {...topP.props} />
                {topP.error && <span id={topP.errorId} className="field-error">{topP.error}</span>}
              </label>
              {protocol !== 'responses' && (
                <label>
                  <span className="label">{protocol === 'messages' ? 'stop_sequences' : 'stop'} (one per line)</span>
                  <textarea aria-label="Stop sequences" rows={Math.min(4, Math.max(1, stops.props.value.split('\n').length))} {...stops.props} />
                </label>
              )}
            </div>
            <div className="row wrap">
              <label className="inline">
                <input type="checkbox" aria-label="Stream" checked={body.stream === true} onChange={(e) => set(setStream(protocol, body, e.target.checked))} /> stream
              </label>
              {protocol === 'chat' && (
                <label className="inline">
                  <input
                    type="checkbox"
                    aria-label="include_usage"
                    title={body.stream === true ? undefined : 'stream_options is only sent with stream on'}
                    disabled={body.stream !== true}
                    checked={isObj(body.stream_options) && body.stream_options.include_usage === true}
                    onChange={(e) => set(setNested(body, 'stream_options', 'include_usage', e.target.checked ? true : undefined))}
                  />{' '}
                  include_usage
                </label>
              )}
              {protocol === 'messages' && (
                <label className="inline">
                  thinking{' '}
                  <select
                    aria-label="Thinking"
                    value={thinking ? String(thinking.type) : ''}
                    onChange={(e) => {
                      const v = e.target.value;
                      if (v !== 'enabled') return set(setField(body, 'thinking', v === '' ? undefined : { type: v }));
                      // The budget must be at least 1,024 and under max_tokens, which counts thinking too: the
                      // default 1,024 max_tokens would make every request a 400, so it is raised where needed.
                      const next = setField(body, 'thinking', { type: 'enabled', budget_tokens: THINKING_BUDGET });
                      const max = body.max_tokens;
                      set(typeof max === 'number' && max > THINKING_BUDGET ? next : setField(next, 'max_tokens', 2 * THINKING_BUDGET));
                    }}
                  >
                    <option value="">off</option>
                    <option value="adaptive">adaptive</option>
                    <option value="enabled">enabled (budget)</option>
                    <option value="disabled">disabled</option>
                  </select>
                  {thinking?.type === 'enabled' && (
                    <>
                      <input aria-label="Thinking budget" inputMode="numeric" className="narrow" {...budget.props} />
                      {budget.error && <span id={budget.errorId} className="field-error">{budget.error}</span>}
                      {typeof thinking.budget_tokens === 'number' && typeof body.max_tokens === 'number' && thinking.budget_tokens >= body.max_tokens && (
                        <span className="field-error">the budget must be under max_tokens ({body.max_tokens}), which counts thinking</span>
                      )}
                    </>
                  )}
                </label>
              )}
              {protocol === 'chat' && (
                <label className="inline">
                  reasoning_effort{' '}
                  <select aria-label="Reasoning effort" value={typeof body.reasoning_effort === 'string' ? body.reasoning_effort : ''} onChange={(e) => set(setField(body, 'reasoning_effort', e.target.value || undefined))}>
                    <option value="">unset</option>
                    {['none', 'minimal', 'low', 'medium', 'high', 'xhigh'].map((x) => (
                      <option key={x}>{x}</option>
                    ))}
                  </select>
                </label>
              )}
              {protocol === 'responses' && (
                <>
                  <label className="inline">
                    reasoning.effort{' '}
                    <select aria-label="Reasoning effort" value={typeof reasoning?.effort === 'string' ? reasoning.effort : ''} onChange={(e) => set(setNested(body, 'reasoning', 'effort', e.target.value || undefined))}>
                      <option value="">unset</option>
                      {['none', 'minimal', 'low', 'medium', 'high', 'xhigh'].map((x) => (
                        <option key={x}>{x}</option>
                      ))}
                    </select>
                  </label>
                  <label className="inline">
                    summary{' '}
                    <select aria-label="Reasoning summary" value={typeof reasoning?.summary === 'string' ? reasoning.summary : ''} onChange={(e) => set(setNested(body, 'reasoning', 'summary', e.target.value || undefined))}>
                      <option value="">unset</option>
                      {['auto', 'concise', 'detailed'].map((x) => (
                        <option key={x}>{x}</option>
                      ))}
                    </select>
                  </label>
                  <label className="inline">
                    <input type="checkbox" checked={body.store !== false} onChange={(e) => set(setField(body, 'store', e.target.checked ? undefined : false))} /> store
                  </label>
                  <label className="inline">
                    previous_response_id{' '}
                    <input aria-label="previous_response_id" className="mono" value={typeof body.previous_response_id === 'string' ? body.previous_response_id : ''} onChange={(e) => set(setField(body, 'previous_response_id', e.target.value || undefined))} />
                  </label>
                </>
              )}
            </div>
            <label>
              <span className="label">tools (JSON array, {protocol === 'messages' ? '{name, description, input_schema}' : protocol === 'chat' ? '{type:"function", function:{name, parameters}}' : '{type:"function", name, parameters}'})</span>
              <textarea
                aria-label="Tools"
                className="mono"
                rows={tools ? 6 : 2}
                value={toolsShown}
                onChange={(e) => {
                  setToolsText(e.target.value);
                  if (!e.target.value.trim()) {
                    toolsWritten.current = undefined;
                    return set(setField(body, 'tools', undefined));
                  }
                  try {
                    const v = JSON.parse(e.target.value);
                    if (Array.isArray(v)) {
                      toolsWritten.current = v;
                      set(setField(body, 'tools', v));
                    }
                  } catch {
                    // Keep typing: the body keeps the last valid tools until this parses.
                  }
                }}
                onBlur={() => !toolsError && setToolsText(undefined)}
              />
              {toolsError && <span className="field-error">{toolsError}</span>}
            </label>
            <label className="inline">
              tool_choice{' '}
              <select
                aria-label="Tool choice"
                value={toolChoiceValue}
                onChange={(e) => {
                  set(setToolChoice(protocol, body, e.target.value));
                }}
              >
                <option value="">unset</option>
                {(protocol === 'messages' ? ['auto', 'any', 'none'] : ['auto', 'required', 'none']).map((x) => (
                  <option key={x}>{x}</option>
                ))}
                {toolChoiceValue && !['auto', 'any', 'none', 'required'].includes(toolChoiceValue) && <option value={toolChoiceValue}>{toolChoiceValue} (named: edit in JSON)</option>}
              </select>
            </label>
          </section>
        </fieldset>

        <section className="card">
          <div className="card-head">
            <span className="label">Request body (JSON) — unknown fields are sent as typed</span>
          </div>
          <JsonEditor label="Request JSON" value={jsonText} onChange={(t) => typeJson(protocol, t)} />
          {jsonError && (
            <p className="field-error" role="alert">
              Invalid JSON: {jsonError}. The last valid body is kept; sending is off and the form is read-only until this parses, so nothing typed
              here is lost.
            </p>
          )}
        </section>
      </div>
      <div className="composer-actions">
        <InputTokens protocol={protocol} />
        <div className="spacer" />
        <SavePreset protocol={protocol} />
        <button type="button" onClick={() => setCodeOpen(true)}>
          Code…
        </button>
        {codeOpen && <CodeDialog protocol={protocol} onClose={() => setCodeOpen(false)} />}
        {canContinue && lastTranscript && pending.length === 0 && (
          <button type="button" disabled={!!jsonError} onClick={() => continueTurn(lastTranscript)} title="Append the assistant turn, then write the next user turn">
            Continue
          </button>
        )}
        {protocol === 'responses' && canContinue && lastTranscript?.id && pending.length === 0 && (
          <button
            type="button"
            disabled={!!jsonError || !lastStored}
            onClick={() => continueById(lastTranscript.id!)}
            title={!lastStored ? 'That request had store off: the gateway kept no response to continue from' : `Send only the next turn, with previous_response_id ${lastTranscript.id}: the gateway holds the conversation`}
          >
            Continue by id
          </button>
        )}
        {sendError && <span className="field-error">{sendError}</span>}
        {blockedReason && <span className="muted small">{blockedReason}</span>}
        <button type="button" disabled={!running || !activeRunId} onClick={() => activeRunId && void runCancelRequested(activeRunId)}>
          Stop
        </button>
        <button type="button" className="primary" disabled={!!blockedReason || running || starting} onClick={() => void send()} title="Ctrl/Cmd+Enter">
          Send
        </button>
      </div>
    </div>
  );
}
