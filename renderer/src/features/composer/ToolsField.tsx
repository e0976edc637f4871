import { useEffect, useRef, useState } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { setField } from './body-fields';
import { PROTOCOL_PARAMS } from './protocol-params';
import { TOOL_CHOICE_MODES, toolChoiceValue, toolNames, withToolChoice } from './tool-choice';
import { useComposerBody } from './use-composer-body';

export interface ToolsText {
  shown: string;
  /** Why the typed text is not a tools array; Send is held while there is one. */
  error?: string;
  typed(text: string): void;
  left(): void;
}

/**
 * The tools box's text. While it does not parse, the body keeps the last valid tools and this says why; tools
 * set anywhere else (JSON editor, preset, History) replace the text.
 */
export function useToolsText(protocol: ProtocolId): ToolsText {
  const { body, set } = useComposerBody(protocol);
  const [text, setText] = useState<string>();
  /** The tools this box last put in the body. */
  const written = useRef<unknown>(undefined);
  useEffect(() => {
    if (body.tools !== written.current) {
      written.current = body.tools;
      setText(undefined);
    }
  }, [body.tools]);
  let error: string | undefined;
  if (text !== undefined && text.trim()) {
    try {
      if (!Array.isArray(JSON.parse(text))) error = 'tools must be a JSON array';
    } catch (e) {
      error = (e as Error).message;
    }
  }
  const tools = Array.isArray(body.tools) ? body.tools : undefined;
  return {
    shown: text ?? (tools ? JSON.stringify(tools, null, 2) : ''),
    error,
    typed(next) {
      setText(next);
      if (!next.trim()) {
        written.current = undefined;
        return set(setField(body, 'tools', undefined));
      }
      try {
        const v: unknown = JSON.parse(next);
        if (Array.isArray(v)) {
          written.current = v;
          set(setField(body, 'tools', v));
        }
      } catch {
        // Keep typing: the body keeps the last valid tools until this parses.
      }
    },
    left: () => !error && setText(undefined),
  };
}

function ToolChoice({ protocol }: { protocol: ProtocolId }) {
  const { body, set } = useComposerBody(protocol);
  const value = toolChoiceValue(protocol, body);
  const names = toolNames(protocol, body);
  const forced = value.startsWith('tool:') ? value.slice(5) : undefined;
  if (forced !== undefined && !names.includes(forced)) names.push(forced);
  return (
    <label className="inline">
      tool_choice{' '}
      <select
        aria-label="Tool choice"
        value={value}
        onChange={(e) => set(withToolChoice(protocol, body, e.target.value))}
      >
        <option value="">unset</option>
        {TOOL_CHOICE_MODES[protocol].map((x) => (
          <option key={x}>{x}</option>
        ))}
        {names.map((n) => (
          <option key={n} value={`tool:${n}`}>
            only {n}
          </option>
        ))}
        {value === 'json' && <option value="json">as in the JSON</option>}
      </select>
    </label>
  );
}

export function ToolsField({ protocol, tools }: { protocol: ProtocolId; tools: ToolsText }) {
  const { body } = useComposerBody(protocol);
  return (
    <>
      <label>
        <span className="label">tools (JSON array, {PROTOCOL_PARAMS[protocol].toolsShape})</span>
        <textarea
          aria-label="Tools"
          className="mono"
          rows={Array.isArray(body.tools) ? 6 : 2}
          value={tools.shown}
          onChange={(e) => tools.typed(e.target.value)}
          onBlur={tools.left}
        />
        {tools.error && <span className="field-error">{tools.error}</span>}
      </label>
      <ToolChoice protocol={protocol} />
    </>
  );
}
