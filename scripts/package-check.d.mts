export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}
export function stubElectron(dir: string): void;
export function asarChecks(entries: string[]): Check[];
export function parseFuses(text: string): Record<string, string>;
export function fuseChecks(configured: Record<string, boolean>, read: Record<string, string>): Check[];
