import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { Menu, resetFakeElectron } from './testing/fake-electron';
import { installMenu, menuTemplate } from './menu';

vi.mock('electron', () => import('./testing/fake-electron'));

beforeEach(resetFakeElectron);

/** Every role and label in a menu, submenus included. */
function entries(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [String(item.role)] : []),
    ...(item.label ? [item.label] : []),
    ...(Array.isArray(item.submenu) ? entries(item.submenu) : []),
  ]);
}

const DEV_ONLY = ['reload', 'forceReload', 'toggleDevTools'];

describe('the application menu', () => {
  it('has File, Edit, View, Window and Help, and the copy and paste roles the text fields need', () => {
    const template = menuTemplate({ isPackaged: true, platform: 'linux', appName: 'Gateway Playground' });
    expect(template.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(entries(template)).toEqual(
      expect.arrayContaining(['quit', 'undo', 'cut', 'copy', 'paste', 'selectAll', 'windowMenu']),
    );
  });

  it('offers Reload and DevTools in a development build only', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const packaged = entries(menuTemplate({ isPackaged: true, platform, appName: 'GP' }));
      expect(
        packaged.filter((e) => DEV_ONLY.includes(e)),
        platform,
      ).toEqual([]);
      const dev = entries(menuTemplate({ isPackaged: false, platform, appName: 'GP' }));
      expect(dev).toEqual(expect.arrayContaining(DEV_ONLY));
    }
  });

  it('leaves Ctrl/Cmd+W to the request tabs: every Close window item is on Ctrl/Cmd+Shift+W', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const items = (function all(list: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
        return list.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? all(i.submenu) : [])]);
      })(menuTemplate({ isPackaged: true, platform, appName: 'GP' }));
      const closes = items.filter((i) => i.role === 'close');
      expect(closes.length, platform).toBeGreaterThan(0);
      for (const c of closes) expect(c.accelerator, platform).toBe('CmdOrCtrl+Shift+W');
      expect(
        items.filter((i) => i.role === 'windowMenu' && !Array.isArray(i.submenu)),
        platform,
      ).toEqual([]);
    }
  });

  it('puts the app menu first on macOS', () => {
    const template = menuTemplate({ isPackaged: true, platform: 'darwin', appName: 'GP' });
    expect(template[0]).toEqual({ role: 'appMenu' });
    expect(template.slice(1).map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
  });

  it('is installed as the application menu', () => {
    installMenu({ isPackaged: true, platform: 'linux', appName: 'GP' });
    const applied = Menu.applied as { items: MenuItemConstructorOptions[] };
    expect(entries(applied.items)).not.toContain('toggleDevTools');
    expect(applied.items.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
  });
});
