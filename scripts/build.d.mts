export function isStale(): boolean;
export function buildAll(opts?: { quiet?: boolean }): Promise<void>;
