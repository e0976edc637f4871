export const CHROMIUM_ARGS: string[];

export function chromiumLaunchOptions(extraArgs?: string[]): { executablePath: string | undefined; args: string[] };
export function systemChromium(): string | undefined;
