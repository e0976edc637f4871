/**
 * Capabilities: what a request needs from a model × protocol, what the probes found, and the protocol-switch
 * guard that puts the two side by side. Pure (no Node, no DOM): the renderer runs the same detection the core
 * does, so the warning a user sees is the warning kept in the run's ledger.
 *
 * The gateway's rule is the reason this exists: a 200 proves nothing about tools, caching or long-running
 * tasks; only evidence in a response does (docs/protocols.md §7). So a capability is "proven" only by a stored
 * probe result, never by earlier successful runs.
 */
import { PROTOCOL_INFO, type ProtocolId } from './protocols/types';
import { isObject } from './is-object';
import { jsonText } from './json-text';

export const CAPABILITY_IDS = [
  'streaming',
  'tools',
  'tool-roundtrip',
  'caching',
  'thinking',
  'vision',
  'structured-output',
  'token-counting',
  'background',
] as const;
export type CapabilityId = (typeof CAPABILITY_IDS)[number];

export const CAPABILITY_INFO: Record<CapabilityId, { label: string; protocols: readonly ProtocolId[] }> = {
  streaming: { label: 'Streaming', protocols: ['messages', 'chat', 'responses'] },
  tools: { label: 'Tool calls', protocols: ['messages', 'chat', 'responses'] },
  'tool-roundtrip': { label: 'Tool-result round trip', protocols: ['messages', 'chat', 'responses'] },
  caching: { label: 'Prompt caching', protocols: ['messages', 'chat', 'responses'] },
  thinking: { label: 'Thinking / reasoning', protocols: ['messages', 'chat', 'responses'] },
  vision: { label: 'Vision', protocols: ['messages', 'chat', 'responses'] },
  'structured-output': { label: 'Structured output', protocols: ['messages', 'chat', 'responses'] },
  // count_tokens is a route of the first family only; Responses' /input_tokens is not among the five endpoints.
  'token-counting': { label: 'Token counting', protocols: ['messages'] },
  // `background` exists only in Responses (docs/protocols.md §4.6, §8).
  background: { label: 'Background tasks', protocols: ['responses'] },
};

/** Whether a probe of this capability means anything on this protocol (a matrix cell exists). */
export function capabilityApplies(protocol: ProtocolId, capability: CapabilityId): boolean {
  return CAPABILITY_INFO[capability].protocols.includes(protocol);
}

export const PROBE_OUTCOMES = ['proven', 'not-supported', 'inconclusive', 'error'] as const;
/**
 * proven: the response carried protocol-level evidence; not-supported: the response shows the feature was
 * dropped or ignored (e.g. a 200 with plain text instead of a tool call); inconclusive: nothing could be
 * concluded (rate limit, timeout, caching that never hit) — try again; error: the gateway refused the probe
 * (status and message kept).
 */
export type ProbeOutcome = (typeof PROBE_OUTCOMES)[number];

export interface ProbeEvidence {
  /** The runs that carry the proof (open in the viewer). Token counting also sends a request that is not a run. */
  runIds: string[];
  /** The response fields the verdict rests on, as received (e.g. the tool call, the cache counters). */
  fields: Record<string, unknown>;
  /** One sentence: why these fields prove, or disprove, the capability. */
  explanation: string;
  /** The model's reply text when it is the evidence (a 200 with text instead of a tool call), capped. */
  text?: string;
}

export interface CapabilityResult {
  model: string;
  protocol: ProtocolId;
  capability: CapabilityId;
  outcome: ProbeOutcome;
  /** One line for the matrix cell and the guard. */
  message: string;
  /** HTTP status of the response the verdict rests on, when there was one. */
  status?: number;
  evidence: ProbeEvidence;
  /** ISO time the probe finished. */
  at: string;
  /** Attempts made (rate-limit retries included). */
  attempts: number;
  durationMs: number;
  /** Rate limited: the gateway's retry-after, as the ISO time after which a retry makes sense. */
  retryAfter?: string;
}

export function resultKey(r: Pick<CapabilityResult, 'model' | 'protocol' | 'capability'>): string {
  return `${r.model}\u0000${r.protocol}\u0000${r.capability}`;
}

// ---------------------------------------------------------------------------------------------------------
// What a request uses
// ---------------------------------------------------------------------------------------------------------

export interface RequiredCapability {
  capability: CapabilityId;
  /** Where in the body it was found, in words (e.g. "2 tools in tools[]"). */
  because: string;
}

type Obj = Record<string, unknown>;

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Every object in a JSON value, depth-first with an explicit stack and a node budget: a pathological body
 * (deeply nested or huge) can neither overflow the call stack nor hang the guard.
 */
function objectsIn(value: unknown, budget = 20_000): Obj[] {
  const out: Obj[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0 && budget-- > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) if (typeof v[i] === 'object' && v[i] !== null) stack.push(v[i]);
    } else if (isObject(v)) {
      out.push(v);
      for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return out;
}

/** Turns and items of the conversation: Messages/Chat `messages`, Responses `input`. */
function turnsOf(body: Obj): unknown[] {
  return [...list(body.messages), ...list(body.input)];
}

/**
 * The capabilities a request body uses. The body may be in any of the three shapes (a request brought from
 * another tab before or after translation), so every protocol's markers are looked for whatever `protocol`
 * says: a field that has no meaning there is still something the user asked for. Token counting is never
 * "used" by a generation request.
 */
export function requiredCapabilities(_protocol: ProtocolId, body: unknown): RequiredCapability[] {
  if (!isObject(body)) return [];
  const found = new Map<CapabilityId, string>();
  const add = (capability: CapabilityId, because: string) => {
    if (!found.has(capability)) found.set(capability, because);
  };

  if (body.stream === true) add('streaming', 'stream: true');

  const tools = list(body.tools);
  if (tools.length > 0) add('tools', `${tools.length} tool${tools.length === 1 ? '' : 's'} in tools[]`);
  if (isObject(body.tool_choice) || typeof body.tool_choice === 'string') {
    const choice = isObject(body.tool_choice) ? jsonText(body.tool_choice.type, 'object') : String(body.tool_choice);
    if (choice !== 'none' && tools.length > 0) add('tools', `tool_choice ${choice}`);
  }

  const turns = turnsOf(body);
  let images = 0;
  let cacheMarks = 0;
  let toolResults = 0;
  let toolCallsInHistory = 0;
  let thinkingBlocks = 0;
  for (const turn of turns) {
    if (!isObject(turn)) continue;
    if (turn.role === 'tool') toolResults++;
    if (turn.type === 'function_call_output') toolResults++;
    if (turn.type === 'function_call') toolCallsInHistory++;
    if (turn.role === 'assistant' && list(turn.tool_calls).length > 0) toolCallsInHistory++;
    if (turn.type === 'reasoning') thinkingBlocks++;
    for (const o of objectsIn(turn.content)) {
      if (o.type === 'image' || o.type === 'image_url' || o.type === 'input_image') images++;
      if (o.type === 'tool_result') toolResults++;
      if (o.type === 'tool_use') toolCallsInHistory++;
      if (o.type === 'thinking' || o.type === 'redacted_thinking') thinkingBlocks++;
      if (isObject(o.cache_control)) cacheMarks++;
    }
  }
  for (const o of objectsIn([body.system, body.tools])) if (isObject(o.cache_control)) cacheMarks++;

  if (toolResults > 0) {
    add('tool-roundtrip', `${toolResults} tool result${toolResults === 1 ? '' : 's'} in the conversation`);
    add('tools', 'tool results in the conversation');
  } else if (toolCallsInHistory > 0) {
    add('tools', 'tool calls in the conversation');
  }

  if (isObject(body.cache_control)) add('caching', 'top-level cache_control (automatic caching)');
  else if (cacheMarks > 0) add('caching', `${cacheMarks} cache_control mark${cacheMarks === 1 ? '' : 's'}`);
  else if (typeof body.prompt_cache_key === 'string') add('caching', 'prompt_cache_key');
  else if (body.prompt_cache_retention !== undefined) add('caching', 'prompt_cache_retention');

  if (isObject(body.thinking) && body.thinking.type !== 'disabled')
    add('thinking', `thinking ${jsonText(body.thinking.type)}`.trim());
  else if (typeof body.reasoning_effort === 'string' && body.reasoning_effort !== 'none') {
    add('thinking', `reasoning_effort ${body.reasoning_effort}`);
  } else if (isObject(body.reasoning) && body.reasoning.effort !== 'none') {
    add('thinking', `reasoning${typeof body.reasoning.effort === 'string' ? ` effort ${body.reasoning.effort}` : ''}`);
  } else if (thinkingBlocks > 0) add('thinking', 'thinking / reasoning items in the conversation');

  if (images > 0) add('vision', `${images} image${images === 1 ? '' : 's'}`);

  const format = structuredFormat(body);
  if (format) add('structured-output', format);

  if (body.background === true) add('background', 'background: true');

  // Keep a stable order: the capability list's own.
  const out: RequiredCapability[] = [];
  for (const id of CAPABILITY_IDS) {
    const because = found.get(id);
    if (because !== undefined) out.push({ capability: id, because });
  }
  return out;
}

/** Messages `output_config.format` (or the older beta `output_format`), Chat `response_format`, Responses `text.format`. */
function structuredFormat(body: Obj): string | undefined {
  const candidates: [string, unknown][] = [
    ['output_config.format', isObject(body.output_config) ? body.output_config.format : undefined],
    ['output_format', body.output_format],
    ['response_format', body.response_format],
    ['text.format', isObject(body.text) ? body.text.format : undefined],
  ];
  for (const [where, f] of candidates) {
    if (isObject(f) && (f.type === 'json_schema' || f.type === 'json_object')) return `${where} ${f.type}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// The protocol-switch guard
// ---------------------------------------------------------------------------------------------------------

export type GuardState = 'proven' | 'not-supported' | 'unknown';

export interface GuardItem {
  capability: CapabilityId;
  /** Where the request uses it. */
  because: string;
  state: GuardState;
  /** The stored probe result behind the state (absent: never probed here). */
  outcome?: ProbeOutcome;
  message: string;
  at?: string;
  ageMs?: number;
  /** The run that shows the evidence. */
  runId?: string;
  status?: number;
}

export interface GuardReport {
  model: string;
  protocol: ProtocolId;
  items: GuardItem[];
  /** Capabilities worth probing now (unknown here). */
  unknown: CapabilityId[];
  /** In words, each short enough to keep in the run's ledger (RunStartInput.warnings caps them at 500 chars). */
  warnings: string[];
}

const WARNING_CAP = 480;

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} days`;
}

function cap(text: string): string {
  return text.length > WARNING_CAP ? `${text.slice(0, WARNING_CAP - 1)}…` : text;
}

/**
 * Puts what a request uses next to the stored results for the target model × protocol. Only a `proven`
 * result counts as proven; an `error` or `inconclusive` probe leaves the capability unknown (its message is
 * kept, so "404 on this protocol" still reaches the user); `not-supported` warns with the evidence run.
 */
export function guardReport(
  target: { model: string; protocol: ProtocolId },
  caps: RequiredCapability[],
  results: CapabilityResult[],
  now: Date = new Date(),
): GuardReport {
  const label = `${target.model} on ${PROTOCOL_INFO[target.protocol].label}`;
  const items: GuardItem[] = [];
  const warnings: string[] = [];
  const unknown: CapabilityId[] = [];

  for (const { capability, because } of caps) {
    const name = CAPABILITY_INFO[capability].label.toLowerCase();
    if (!capabilityApplies(target.protocol, capability)) {
      items.push({
        capability,
        because,
        state: 'not-supported',
        message: `${PROTOCOL_INFO[target.protocol].label} has no ${name}; it is lost in translation.`,
      });
      warnings.push(
        cap(
          `${CAPABILITY_INFO[capability].label}: the request uses it (${because}), but ${PROTOCOL_INFO[target.protocol].label} has no equivalent, so it is dropped.`,
        ),
      );
      continue;
    }
    const r = results.find(
      (x) => x.model === target.model && x.protocol === target.protocol && x.capability === capability,
    );
    if (!r) {
      items.push({ capability, because, state: 'unknown', message: `Never probed for ${label}.` });
      unknown.push(capability);
      continue;
    }
    const ageMs = Math.max(0, now.getTime() - Date.parse(r.at));
    const base = {
      capability,
      because,
      outcome: r.outcome,
      at: r.at,
      ageMs,
      runId: r.evidence.runIds[0],
      status: r.status,
    };
    const when = `probed ${formatAge(ageMs)} ago${r.evidence.runIds[0] ? `, run ${r.evidence.runIds[0]}` : ''}`;
    if (r.outcome === 'proven') {
      items.push({ ...base, state: 'proven', message: r.message });
      // Background acceptance is proven, but its result still cannot be fetched: say so every time.
      if (capability === 'background' && r.evidence.fields.retrieval === 'unsupported') {
        warnings.push(
          cap(
            `Background tasks: ${label} accepts background requests, but the five endpoints include no way to fetch the result (${when}).`,
          ),
        );
      }
    } else if (r.outcome === 'not-supported') {
      items.push({ ...base, state: 'not-supported', message: r.message });
      warnings.push(
        cap(
          `${CAPABILITY_INFO[capability].label}: the request uses it (${because}), but it is not supported by ${label}: ${r.message.replace(/\.$/, '')} (${when}).`,
        ),
      );
    } else {
      items.push({
        ...base,
        state: 'unknown',
        message: `Last probe ${r.outcome}${r.status ? ` (HTTP ${r.status})` : ''}: ${r.message}`,
      });
      unknown.push(capability);
    }
  }

  if (unknown.length > 0) {
    const names = unknown.map((c) => CAPABILITY_INFO[c].label.toLowerCase()).join(', ');
    const notes = items
      .filter((i) => i.state === 'unknown' && i.outcome)
      .map(
        (i) =>
          `${CAPABILITY_INFO[i.capability].label.toLowerCase()}: last probe ${i.outcome}${i.status ? ` ${i.status}` : ''}`,
      );
    warnings.push(
      cap(
        `Not proven for ${label}: ${names}. A 200 would not show whether they work${notes.length ? ` (${notes.join('; ')})` : ''}.`,
      ),
    );
  }
  return { model: target.model, protocol: target.protocol, items, unknown, warnings };
}
