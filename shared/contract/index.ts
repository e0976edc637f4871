/**
 * The one contract every process keys off: each call's name, input schema and output type, and the push
 * events. Call names are `domain:verb`; no channel string appears anywhere else. A bundle that needs only the
 * names and the API builder (the preload) imports api.ts, not this file, and so leaves zod out.
 */
export * from './define';
export * from './app';
export * from './profiles';
export * from './models';
export * from './runs';
export * from './errors';
export * from './capabilities';
export * from './library';
export * from './collections';
export * from './tokens';
export * from './drafts';
export * from './settings';
export * from './load';
export * from './locust';
export * from './agents';
export * from './agent-session';
export * from './prices';
export * from './calls';
export * from './names';
export * from './api';
