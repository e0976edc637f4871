/**
 * The contract's call and push names as plain tuples, apart from their schemas: what a transport needs
 * (the preload, the hosts' handler loops) without bundling zod. names.test.ts holds them to the schemas in
 * calls.ts, so a name missing here or one with no schema fails to compile.
 */
import type { CallName, PushName } from './calls';

export const CALL_NAMES = [
  'app:info',
  'profiles:list',
  'profiles:save',
  'profiles:delete',
  'profiles:select',
  'profiles:test',
  'models:list',
  'runs:start',
  'runs:get',
  'runs:cancel',
  'capabilities:list',
  'capabilities:probe',
  'capabilities:cancel',
  'capabilities:guard',
  'presets:list',
  'presets:save',
  'presets:rename',
  'presets:duplicate',
  'presets:delete',
  'presets:restore',
  'presets:export',
  'presets:import',
  'history:list',
  'history:get',
  'history:delete',
  'history:clear',
  'history:settings',
  'history:code',
  'export:code',
  'import:curl',
  'tokens:count',
  'drafts:list',
  'drafts:save',
  'settings:get',
  'settings:update',
  'load:start',
  'load:stop',
  'load:list',
  'load:get',
  'load:delete',
  'agents:list',
  'agents:check',
  'agents:cancel',
  'agents:report',
  'agents:connect',
  'agents:disconnect',
  'agents:session',
] as const satisfies readonly CallName[];

export const PUSH_NAMES = [
  'runs:update',
  'capabilities:progress',
  'load:progress',
  'agents:update',
] as const satisfies readonly PushName[];
