/**
 * tool_choice in each protocol's own shape (docs/protocols.md §1.4, §3.2, §4.1), as one value the form's select
 * holds: '' (unset), a mode ('auto', 'any'/'required', 'none'), `tool:<name>` to force one named tool, or
 * 'json' for a shape the form does not write (kept as typed in the JSON editor).
 */
import type { ProtocolId } from '../../../../shared/protocols/types';

type Body = Record<string, unknown>;
const isObj = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);

export const TOOL_CHOICE_MODES: Record<ProtocolId, string[]> = {
  messages: ['auto', 'any', 'none'],
  chat: ['auto', 'required', 'none'],
  responses: ['auto', 'required', 'none'],
};

/** The names of the tools a body declares, in order. */
export function toolNames(protocol: ProtocolId, body: Body): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.flatMap((t) => {
    if (!isObj(t)) return [];
    const name = protocol === 'chat' && isObj(t.function) ? t.function.name : t.name;
    return typeof name === 'string' && name ? [name] : [];
  });
}

/** The one tool a tool_choice forces, in this protocol's shape, or undefined. */
function forcedName(protocol: ProtocolId, choice: Body): string | undefined {
  const name =
    protocol === 'messages'
      ? choice.type === 'tool'
        ? choice.name
        : undefined
      : choice.type !== 'function'
        ? undefined
        : protocol === 'chat'
          ? isObj(choice.function)
            ? choice.function.name
            : undefined
          : choice.name;
  return typeof name === 'string' ? name : undefined;
}

export function toolChoiceValue(protocol: ProtocolId, body: Body): string {
  const choice = body.tool_choice;
  if (choice === undefined) return '';
  if (typeof choice === 'string') return protocol === 'messages' ? 'json' : choice;
  if (!isObj(choice)) return 'json';
  const name = forcedName(protocol, choice);
  if (name !== undefined) return `tool:${name}`;
  return protocol === 'messages' && typeof choice.type === 'string' && TOOL_CHOICE_MODES.messages.includes(choice.type)
    ? choice.type
    : 'json';
}

/** The body with the select's value as its tool_choice; Messages keeps the object's other fields. */
export function withToolChoice(protocol: ProtocolId, body: Body, value: string): Body {
  const next = { ...body };
  if (value === 'json') return body;
  if (!value) {
    delete next.tool_choice;
    return next;
  }
  const name = value.startsWith('tool:') ? value.slice(5) : undefined;
  if (protocol === 'messages') {
    const { name: _old, ...rest } = isObj(body.tool_choice) ? body.tool_choice : {};
    next.tool_choice = name === undefined ? { ...rest, type: value } : { ...rest, type: 'tool', name };
  } else if (name === undefined) next.tool_choice = value;
  else next.tool_choice = protocol === 'chat' ? { type: 'function', function: { name } } : { type: 'function', name };
  return next;
}
