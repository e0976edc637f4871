/**
 * The app's settings over real files in a temp data dir: a change survives a restart, and a corrupt file is
 * moved aside and reported while the defaults apply.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../../shared/contract';
import { SettingsStore } from './settings-store';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-settings-');

describe('settings', () => {
  it('a theme and a dismissed offer survive a restart; fields not given are kept', async () => {
    const dataDir = temp();
    const s = new SettingsStore(dataDir);
    expect(await s.load()).toEqual([]);
    expect(s.get()).toEqual(DEFAULT_SETTINGS);
    await s.update({ theme: 'light' });
    expect(await s.update({ bringDismissed: ['messages>chat'] })).toEqual({
      theme: 'light',
      bringDismissed: ['messages>chat'],
      autoRetry: false,
      lastTab: 'messages',
    });
    const again = new SettingsStore(dataDir);
    await again.load();
    expect(again.get()).toEqual({
      theme: 'light',
      bringDismissed: ['messages>chat'],
      autoRetry: false,
      lastTab: 'messages',
    });
  });

  it('the tab last open survives a restart; a file from before it was kept opens on Messages', async () => {
    const dataDir = temp();
    writeFileSync(path.join(dataDir, 'settings.json'), '{"version":1,"settings":{"theme":"dark"}}');
    const s = new SettingsStore(dataDir);
    expect(await s.load()).toEqual([]);
    expect(s.get().lastTab).toBe('messages');
    await s.update({ lastTab: 'history' });
    const again = new SettingsStore(dataDir);
    await again.load();
    expect(again.get()).toMatchObject({ theme: 'dark', lastTab: 'history' });
  });

  it('a corrupt file is moved aside and reported; the defaults apply', async () => {
    const dataDir = temp();
    writeFileSync(path.join(dataDir, 'settings.json'), '{"version":1,"settings":{"theme":"neon"}}');
    const s = new SettingsStore(dataDir);
    const problems = await s.load();
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toContain('settings.json');
    expect(s.get()).toEqual(DEFAULT_SETTINGS);
    expect(readdirSync(dataDir).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
  });
});
