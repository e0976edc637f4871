import { describe, expect, it } from 'vitest';
import { chromiumChoice, ensureChromium, fallbackAfterFailedDownload } from './ensure-chromium.mjs';

const PW = '/home/u/.cache/ms-playwright/chromium-1/chrome';

/** A machine: which paths exist, which commands succeed (and what they install), what was said and run. */
function machine(opts: {
  files?: string[];
  works?: Record<string, string | undefined>;
  apt?: boolean;
  root?: boolean;
}) {
  const files = new Set(opts.files ?? []);
  const said: string[] = [];
  const ran: string[] = [];
  return {
    said,
    ran,
    deps: {
      playwrightPath: PW,
      systemPath: () => ['/usr/bin/chromium'].find((p) => files.has(p)),
      exists: (p: string) => files.has(p),
      run: (cmd: string[]) => {
        const line = cmd.join(' ');
        ran.push(line);
        if (!(line in (opts.works ?? {}))) return false;
        const made = opts.works![line];
        if (made) files.add(made);
        return true;
      },
      say: (l: string) => said.push(l),
      platform: 'linux',
      hasApt: opts.apt ?? false,
      isRoot: opts.root ?? false,
    },
  };
}

describe('Chromium for the e2e stage', () => {
  it('uses what is there: PLAYWRIGHT_CHROMIUM_PATH, then a system Chromium, then Playwright’s own', () => {
    const exists = (p: string) => ['/opt/c', PW].includes(p);
    expect(chromiumChoice({ envPath: '/opt/c', systemPath: '/usr/bin/chromium', playwrightPath: PW, exists })).toEqual({
      use: '/opt/c',
    });
    expect(chromiumChoice({ systemPath: '/usr/bin/chromium', playwrightPath: PW, exists })).toEqual({
      use: '/usr/bin/chromium',
    });
    expect(chromiumChoice({ playwrightPath: PW, exists })).toEqual({ use: PW });
    expect(chromiumChoice({ playwrightPath: PW, exists: () => false })).toEqual({ install: 'playwright' });
  });

  it('on a fresh laptop with none, downloads Playwright’s and says so in one line', () => {
    const m = machine({ works: { 'npx playwright install chromium': PW } });
    expect(ensureChromium(m.deps)).toBe(true);
    expect(m.ran).toEqual(['npx playwright install chromium']);
    expect(m.said).toEqual([
      "No Chromium found for the e2e tests: downloading Playwright's (npx playwright install chromium)…",
    ]);
  });

  it('with a Chromium there already, downloads nothing and says nothing', () => {
    const m = machine({ files: ['/usr/bin/chromium'] });
    expect(ensureChromium(m.deps)).toBe(true);
    expect(m.ran).toEqual([]);
    expect(m.said).toEqual([]);
  });

  it('where the download fails, as root with apt-get (CI), installs Debian’s chromium instead', () => {
    const m = machine({ apt: true, root: true, works: { 'apt-get install -y chromium': '/usr/bin/chromium' } });
    expect(ensureChromium(m.deps)).toBe(true);
    expect(m.ran).toEqual(['npx playwright install chromium', 'apt-get install -y chromium']);
    expect(m.said[1]).toMatch(/Debian's chromium/);
  });

  it('where the download fails on a desktop, says exactly what to install and fails', () => {
    const m = machine({ apt: true });
    expect(ensureChromium(m.deps)).toBe(false);
    expect(m.said[1]).toContain('no Chromium was found: run `sudo apt-get install chromium`');
    expect(m.said[1]).toContain('PLAYWRIGHT_CHROMIUM_PATH');
    expect(fallbackAfterFailedDownload({ platform: 'darwin', hasApt: false, isRoot: false }).say).toContain(
      'brew install --cask chromium',
    );
  });
});
