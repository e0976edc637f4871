import { z } from 'zod';
import { defineCall } from './define';

/** Something start-up could not read, moved aside and reported instead of crashing. */
export interface StartupProblem {
  file: string;
  movedTo?: string;
  message: string;
}

export interface AppInfo {
  version: string;
  host: 'electron' | 'web';
  dataDir: string;
  problems: StartupProblem[];
}

export const appCalls = {
  'app:info': defineCall<AppInfo>()(z.object({}).strict()),
};
