import type { StateCreator } from 'zustand';
import type { CompareColumn } from '../../../shared/contract';
import { defaultBody } from '../../../shared/protocols/compose';
import type { AppState } from './index';

export interface CompareSlice {
  /** The shared prompt, written once in the Messages shape and translated into each column's protocol. */
  compareBody: Record<string, unknown>;
  compareColumns: CompareColumn[];
  /** The run of each column in the last "Run all" (same order as the columns). */
  compareRunIds: (string | undefined)[];
  compareBodyEdited(body: Record<string, unknown>): void;
  compareColumnsChanged(columns: CompareColumn[]): void;
  compareRunsStarted(runIds: (string | undefined)[]): void;
}

export const createCompareSlice: StateCreator<AppState, [], [], CompareSlice> = (set) => ({
  compareBody: { ...defaultBody('messages'), max_tokens: 512 },
  compareColumns: [
    { profileId: 'demo', protocol: 'messages', model: 'claude-sim-sonnet' },
    { profileId: 'demo', protocol: 'chat', model: 'claude-sim-sonnet' },
  ],
  compareRunIds: [],
  compareBodyEdited: (body) => set({ compareBody: body }),
  compareColumnsChanged: (columns) => set((s) => ({ compareColumns: columns, compareRunIds: s.compareRunIds.slice(0, columns.length) })),
  compareRunsStarted: (runIds) => set({ compareRunIds: runIds }),
});
