/**
 * The simulated gateway's models and keys. Ids are a contract: the UI's demo, the tests and the probes name
 * them. Behaviour comes from flags here, never from parsing the id elsewhere.
 */
import type { ProtocolId } from '../../../shared/protocols/types';
import type { RelayId } from './relays';

export type Fault =
  | 'cut'
  | 'midstream-error'
  | 'malformed'
  | '429'
  | 'overloaded'
  | 'html-502'
  | 'slow'
  | 'stall'
  | 'fragmented'
  | 'done-noise'
  | 'buffered'
  | '200-error'
  | 'firehose';

export interface SimModel {
  id: string;
  displayName: string;
  ownedBy: 'anthropic' | 'openai' | 'simulator';
  /** Unix seconds. */
  created: number;
  /** Protocols that route this model; others answer 404. */
  protocols: readonly ProtocolId[];
  tools: boolean;
  thinking: boolean;
  caching: boolean;
  vision: boolean;
  structured: boolean;
  fault?: Fault;
  /** A relay in front of the upstream that breaks coding agents (relays.ts). */
  relay?: RelayId;
}

const ALL: readonly ProtocolId[] = ['messages', 'chat', 'responses'];
const base = { protocols: ALL, tools: true, thinking: false, caching: true, vision: true, structured: true };

export const SIM_MODELS: readonly SimModel[] = [
  {
    ...base,
    id: 'claude-sim-sonnet',
    displayName: 'Claude Sim Sonnet',
    ownedBy: 'anthropic',
    created: 1759276800,
    thinking: true,
  },
  { ...base, id: 'claude-sim-haiku', displayName: 'Claude Sim Haiku', ownedBy: 'anthropic', created: 1756684800 },
  { ...base, id: 'gpt-sim-4o', displayName: 'GPT Sim 4o', ownedBy: 'openai', created: 1754006400 },
  { ...base, id: 'gpt-sim-o3', displayName: 'GPT Sim o3', ownedBy: 'openai', created: 1751328000, thinking: true },
  {
    ...base,
    id: 'gpt-sim-mini',
    displayName: 'GPT Sim mini',
    ownedBy: 'openai',
    created: 1748736000,
    vision: false,
    structured: false,
  },
  {
    ...base,
    id: 'sim-chat-only',
    displayName: 'Chat-only model',
    ownedBy: 'simulator',
    created: 1746057600,
    protocols: ['chat'],
  },
  {
    ...base,
    id: 'sim-no-tools',
    displayName: 'Model that ignores tools',
    ownedBy: 'simulator',
    created: 1743465600,
    tools: false,
  },
  {
    ...base,
    id: 'sim-no-cache',
    displayName: 'Model that never reports caching',
    ownedBy: 'simulator',
    created: 1740787200,
    caching: false,
  },
  ...(
    [
      ['cut', 'Fault: stream cut mid-way'],
      ['midstream-error', 'Fault: error event mid-stream'],
      ['malformed', 'Fault: one malformed event'],
      ['429', 'Fault: 429 rate limited'],
      ['overloaded', 'Fault: overloaded (529/503)'],
      ['html-502', 'Fault: HTML 502 from a proxy'],
      ['slow', 'Fault: slow stream'],
      ['stall', 'Fault: stream stalls'],
      ['fragmented', 'Fault: tiny TCP fragments'],
      ['done-noise', 'Fault: [DONE] after the terminal event'],
      ['200-error', 'Fault: error inside a 200'],
      ['buffered', 'Fault: relay buffers, then flushes'],
    ] as const
  ).map(([fault, name], i) => ({
    ...base,
    id: `sim-fault-${fault}`,
    displayName: name,
    ownedBy: 'simulator' as const,
    created: 1730000000 - i,
    fault,
  })),
  ...(
    [
      ['drops-include', 'Relay: drops include (no encrypted reasoning)'],
      ['key-pool', 'Relay: pools upstream keys'],
      ['strips-signatures', 'Relay: strips thinking signatures'],
      ['ignores-cache', 'Relay: ignores cache marks'],
      ['chat-text-tools', 'Relay: tools as text on Chat Completions'],
      ['refuses-system-turns', 'Relay: refuses system turns in messages'],
      ['function-tools-only', 'Relay: only function tools on Responses'],
      ['cuts-stream-line', 'Relay: cuts a stream line (malformed JSON)'],
    ] as const
  ).map(([relay, name], i) => ({
    ...base,
    id: `sim-relay-${relay}`,
    displayName: name,
    ownedBy: 'simulator' as const,
    created: 1725000000 - i,
    thinking: true,
    relay,
    // A line cut in half reaches the client as one malformed event (the fault's stream writer sends it).
    ...(relay === 'cuts-stream-line' ? { fault: 'malformed' as const } : {}),
  })),
  {
    ...base,
    id: 'sim-firehose',
    displayName: 'Firehose (one delta per max token)',
    ownedBy: 'simulator',
    created: 1720000000,
    fault: 'firehose',
  },
];

export const DEMO_KEY = 'demo-key';

export const DEFAULT_KEYS: Record<string, string[]> = {
  [DEMO_KEY]: SIM_MODELS.map((m) => m.id),
  'sk-sim-small': ['claude-sim-haiku', 'gpt-sim-mini', 'sim-chat-only'],
};

export function findModel(id: string): SimModel | undefined {
  return SIM_MODELS.find((m) => m.id === id);
}

/** The Demo gateway's everyday model: what a new composer or comparison starts with. */
export const SIM_DEFAULT_MODEL = 'claude-sim-sonnet';

/** Ids of the models that misbehave on purpose (`fault`), firehose included. */
export const SIM_FAULT_MODELS: ReadonlySet<string> = new Set(
  SIM_MODELS.filter((m) => m.fault !== undefined).map((m) => m.id),
);
