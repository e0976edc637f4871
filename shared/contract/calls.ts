/**
 * Every call's input schema and output type, gathered from the domain files, and the push payloads. The names
 * alone (for the preload and the hosts' transports) are in names.ts, which imports this file as types only.
 */
import type { z } from 'zod';
import type { CallSpec } from './define';
import { appCalls } from './app';
import { profileCalls } from './profiles';
import { modelCalls } from './models';
import { runCalls, type RunUpdate } from './runs';
import { capabilityCalls, type CapabilityProgress } from './capabilities';
import { libraryCalls } from './library';
import { collectionCalls, collectionRunCalls, type CollectionRunProgress } from './collections';
import { tokenCalls } from './tokens';
import { draftCalls } from './drafts';
import { settingsCalls } from './settings';
import { loadCalls, type LoadProgress } from './load';
import { locustCalls } from './locust';
import { agentCalls, replayCalls } from './agents';
import { agentSessionCalls, type AgentSessionUpdate } from './agent-session';
import { priceCalls } from './prices';

export const calls = {
  ...appCalls,
  ...profileCalls,
  ...modelCalls,
  ...runCalls,
  ...capabilityCalls,
  ...libraryCalls,
  ...collectionCalls,
  ...collectionRunCalls,
  ...tokenCalls,
  ...draftCalls,
  ...settingsCalls,
  ...loadCalls,
  ...locustCalls,
  ...agentCalls,
  ...replayCalls,
  ...agentSessionCalls,
  ...priceCalls,
};

export type Calls = typeof calls;
export type CallName = keyof Calls;

export type CallInput<K extends CallName> = z.input<Calls[K]['input']>;
export type CallParsed<K extends CallName> = z.output<Calls[K]['input']>;
export type CallOutput<K extends CallName> = Calls[K] extends CallSpec<z.ZodType, infer O> ? O : never;

/** Push events, main → renderer. */
export interface Pushes {
  'runs:update': RunUpdate[];
  'capabilities:progress': CapabilityProgress;
  'load:progress': LoadProgress;
  'agents:update': AgentSessionUpdate;
  'collections:progress': CollectionRunProgress;
}
export type PushName = keyof Pushes;
