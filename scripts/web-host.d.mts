export function hasDesktop(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): boolean;
export function runWebHost(args: string[]): Promise<void>;
