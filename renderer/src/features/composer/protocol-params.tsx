/**
 * What one protocol's form has and the others do not, as a map from protocol to its names and controls: the
 * form reads `PROTOCOL_PARAMS[protocol]`, never a branch on the protocol.
 */
import type { ComponentType } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { numberText, setField, setNested, type Body } from './body-fields';
import { useComposerBody } from './use-composer-body';
import { useFieldText } from './use-field-text';

type Params = { protocol: ProtocolId };
const isObj = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);
const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/** The budget "enabled (budget)" starts with (docs/protocols.md §1.5: at least 1,024 and under max_tokens). */
const THINKING_BUDGET = 2048;

function Choice({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: unknown;
  options: string[];
  onChange(v: string | undefined): void;
}) {
  return (
    <label className="inline">
      {name}{' '}
      <select
        aria-label={label}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">unset</option>
        {options.map((x) => (
          <option key={x}>{x}</option>
        ))}
      </select>
    </label>
  );
}

function Thinking({ protocol }: Params) {
  const { body, set } = useComposerBody(protocol);
  const thinking = isObj(body.thinking) ? body.thinking : undefined;
  const budget = useFieldText(
    thinking?.budget_tokens,
    numberText,
    (v) => set(setNested(body, 'thinking', 'budget_tokens', v)),
    'budget_tokens',
  );
  const choose = (v: string) => {
    if (v !== 'enabled') return set(setField(body, 'thinking', v === '' ? undefined : { type: v }));
    // The budget must be at least 1,024 and under max_tokens, which counts thinking too: the default 1,024
    // max_tokens would make every request a 400, so it is raised where needed.
    const next = setField(body, 'thinking', { type: 'enabled', budget_tokens: THINKING_BUDGET });
    const max = body.max_tokens;
    set(typeof max === 'number' && max > THINKING_BUDGET ? next : setField(next, 'max_tokens', 2 * THINKING_BUDGET));
  };
  const over =
    typeof thinking?.budget_tokens === 'number' &&
    typeof body.max_tokens === 'number' &&
    thinking.budget_tokens >= body.max_tokens;
  return (
    <label className="inline">
      thinking{' '}
      <select
        aria-label="Thinking"
        value={thinking ? String(thinking.type) : ''}
        onChange={(e) => choose(e.target.value)}
      >
        <option value="">off</option>
        <option value="adaptive">adaptive</option>
        <option value="enabled">enabled (budget)</option>
        <option value="disabled">disabled</option>
      </select>
      {thinking?.type === 'enabled' && (
        <>
          <input aria-label="Thinking budget" inputMode="numeric" className="narrow" {...budget.props} />
          {budget.error && (
            <span id={budget.errorId} className="field-error">
              {budget.error}
            </span>
          )}
          {over && (
            <span className="field-error">
              the budget must be under max_tokens ({String(body.max_tokens)}), which counts thinking
            </span>
          )}
        </>
      )}
    </label>
  );
}

function ChatParams({ protocol }: Params) {
  const { body, set } = useComposerBody(protocol);
  const streaming = body.stream === true;
  return (
    <>
      <label className="inline">
        <input
          type="checkbox"
          aria-label="include_usage"
          title={streaming ? undefined : 'stream_options is only sent with stream on'}
          disabled={!streaming}
          checked={isObj(body.stream_options) && body.stream_options.include_usage === true}
          onChange={(e) => set(setNested(body, 'stream_options', 'include_usage', e.target.checked ? true : undefined))}
        />{' '}
        include_usage
      </label>
      <Choice
        label="Reasoning effort"
        name="reasoning_effort"
        value={body.reasoning_effort}
        options={EFFORTS}
        onChange={(v) => set(setField(body, 'reasoning_effort', v))}
      />
    </>
  );
}

function ResponsesParams({ protocol }: Params) {
  const { body, set } = useComposerBody(protocol);
  const reasoning = isObj(body.reasoning) ? body.reasoning : undefined;
  return (
    <>
      <Choice
        label="Reasoning effort"
        name="reasoning.effort"
        value={reasoning?.effort}
        options={EFFORTS}
        onChange={(v) => set(setNested(body, 'reasoning', 'effort', v))}
      />
      <Choice
        label="Reasoning summary"
        name="summary"
        value={reasoning?.summary}
        options={['auto', 'concise', 'detailed']}
        onChange={(v) => set(setNested(body, 'reasoning', 'summary', v))}
      />
      <label className="inline">
        <input
          type="checkbox"
          checked={body.store !== false}
          onChange={(e) => set(setField(body, 'store', e.target.checked ? undefined : false))}
        />{' '}
        store
      </label>
      <label className="inline">
        previous_response_id{' '}
        <input
          aria-label="previous_response_id"
          className="mono"
          value={typeof body.previous_response_id === 'string' ? body.previous_response_id : ''}
          onChange={(e) => set(setField(body, 'previous_response_id', e.target.value || undefined))}
        />
      </label>
    </>
  );
}

export interface ProtocolParams {
  /** What the system prompt is called in this protocol's own terms. */
  systemLabel: 'System prompt' | 'Instructions';
  /** Whether cache_control breakpoints can be set on the system prompt and on turns (docs/protocols.md §1.3). */
  cacheMarks: boolean;
  /** Whether a stored reply can be continued by its id alone (previous_response_id, docs/protocols.md §4.1). */
  continueById: boolean;
  /** The stop field's name, or none (Responses has no stop sequences). */
  stopsName?: string;
  /** The shape the tools box expects, as a hint. */
  toolsShape: string;
  extra: ComponentType<Params>;
}

export const PROTOCOL_PARAMS: Record<ProtocolId, ProtocolParams> = {
  messages: {
    systemLabel: 'System prompt',
    cacheMarks: true,
    continueById: false,
    stopsName: 'stop_sequences',
    toolsShape: '{name, description, input_schema}',
    extra: Thinking,
  },
  chat: {
    systemLabel: 'System prompt',
    cacheMarks: false,
    continueById: false,
    stopsName: 'stop',
    toolsShape: '{type:"function", function:{name, parameters}}',
    extra: ChatParams,
  },
  responses: {
    systemLabel: 'Instructions',
    cacheMarks: false,
    continueById: true,
    toolsShape: '{type:"function", name, parameters}',
    extra: ResponsesParams,
  },
};
