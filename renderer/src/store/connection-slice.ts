import type { StateCreator } from 'zustand';
import type { AppState } from './index';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ConnectionSlice {}

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = () => ({});
