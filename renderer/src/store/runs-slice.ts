import type { StateCreator } from 'zustand';
import type { AppState } from './index';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RunsSlice {}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = () => ({});
