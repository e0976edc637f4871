export function chromiumChoice(m: {
  envPath?: string;
  systemPath?: string;
  playwrightPath?: string;
  exists: (p: string) => boolean;
}): { use: string } | { install: 'playwright' };
export function fallbackAfterFailedDownload(m: { platform: string; hasApt: boolean; isRoot: boolean }): {
  run?: string[];
  say: string;
};
export function ensureChromium(m: {
  envPath?: string;
  systemPath?: () => string | undefined;
  playwrightPath?: string;
  exists: (p: string) => boolean;
  run: (cmd: string[]) => boolean;
  say: (line: string) => void;
  platform: string;
  hasApt: boolean;
  isRoot: boolean;
}): boolean;
