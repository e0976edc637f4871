import type { BuildOptions } from 'esbuild';

export function isStale(): boolean;
export function buildAll(opts?: { quiet?: boolean }): Promise<void>;
export function hostBundles(): Record<'web' | 'main' | 'preload', BuildOptions>;
