/**
 * One bound store assembled from typed slices; middleware (if any) is applied here only. Components subscribe
 * with atomic selectors (`useAppStore((s) => s.x)`) or `useShallow`, never the whole store.
 */
import { create } from 'zustand';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createComposerSlice, type ComposerSlice } from './composer-slice';
import { createRunsSlice, type RunsSlice } from './runs-slice';
import { createCapabilitiesSlice, type CapabilitiesSlice } from './capabilities-slice';
import { createLibrarySlice, type LibrarySlice } from './library-slice';
import { createCompareSlice, type CompareSlice } from './compare-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createLoadSlice, type LoadSlice } from './load-slice';
import { createLocustSlice, type LocustSlice } from './locust-slice';
import { createAgentsSlice, type AgentsSlice } from './agents-slice';
import { createAgentSessionSlice, type AgentSessionSlice } from './agent-session-slice';
import { createPricesSlice, type PricesSlice } from './prices-slice';
import { createCollectionsSlice, type CollectionsSlice } from './collections-slice';
import { createRequestsSlice, type RequestsSlice } from './requests-slice';

export type AppState = ConnectionSlice &
  ComposerSlice &
  RunsSlice &
  CapabilitiesSlice &
  LibrarySlice &
  CompareSlice &
  SettingsSlice &
  LoadSlice &
  LocustSlice &
  AgentsSlice &
  AgentSessionSlice &
  PricesSlice &
  CollectionsSlice &
  RequestsSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createConnectionSlice(...a),
  ...createComposerSlice(...a),
  ...createRunsSlice(...a),
  ...createCapabilitiesSlice(...a),
  ...createLibrarySlice(...a),
  ...createCompareSlice(...a),
  ...createSettingsSlice(...a),
  ...createLoadSlice(...a),
  ...createLocustSlice(...a),
  ...createAgentsSlice(...a),
  ...createAgentSessionSlice(...a),
  ...createPricesSlice(...a),
  ...createCollectionsSlice(...a),
  ...createRequestsSlice(...a),
}));
