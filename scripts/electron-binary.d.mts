export function installedBinary(electronDir: string): string | undefined;
export function wantsVerbose(argv?: string[], env?: NodeJS.ProcessEnv): boolean;
export const INSTALL_LOG: string;
export function ensureElectron(opts: {
  electronDir: string;
  verbose?: boolean;
  logFile?: string;
  out?: (text: string) => void;
}): { binary: string } | { binary: undefined; log: string };
export function noElectronSentence(log: string, verbose: boolean): string;
