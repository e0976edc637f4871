import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BrowserWindow as ElectronWindow } from 'electron';
import { tempDirs } from '../core/testing/temp-dirs';
import { BrowserWindow } from './testing/fake-electron';
import { clampToDisplays, loadWindowState, saveWindowState, trackWindowState, WINDOW_STATE_FILE } from './window-state';

vi.mock('electron', () => import('./testing/fake-electron'));

const dirs = tempDirs('gp-window-state-');
const laptop = { x: 0, y: 0, width: 1920, height: 1080 };
const rightMonitor = { x: 1920, y: 0, width: 2560, height: 1440 };

describe('clampToDisplays', () => {
  it.each([
    ['nothing saved: the default size, placed by the OS', undefined, [laptop], { width: 1440, height: 900 }],
    [
      'fully visible: unchanged',
      { x: 100, y: 50, width: 1200, height: 800 },
      [laptop],
      { x: 100, y: 50, width: 1200, height: 800 },
    ],
    [
      'on the second monitor: stays there',
      { x: 2000, y: 100, width: 1600, height: 1000 },
      [laptop, rightMonitor],
      { x: 2000, y: 100, width: 1600, height: 1000 },
    ],
    [
      'that monitor unplugged: the default size on the one left',
      { x: 2000, y: 100, width: 1600, height: 1000 },
      [laptop],
      { width: 1440, height: 900 },
    ],
    [
      'half off the right edge: moved in',
      { x: 1500, y: 100, width: 1000, height: 700 },
      [laptop],
      { x: 920, y: 100, width: 1000, height: 700 },
    ],
    [
      'above the top: moved down',
      { x: 10, y: -300, width: 1000, height: 700 },
      [laptop],
      { x: 10, y: 0, width: 1000, height: 700 },
    ],
    ['bigger than the screen: shrunk to it', { x: -50, y: -50, width: 3000, height: 2000 }, [laptop], laptop],
    [
      'a screen smaller than the minimum: fills it',
      { x: 0, y: 0, width: 1440, height: 900 },
      [{ x: 0, y: 0, width: 800, height: 500 }],
      { x: 0, y: 0, width: 800, height: 500 },
    ],
    [
      'mostly on the second monitor: clamped into it',
      { x: 1800, y: 0, width: 1400, height: 900 },
      [laptop, rightMonitor],
      { x: 1920, y: 0, width: 1400, height: 900 },
    ],
    [
      'no display reported: the default size',
      { x: 0, y: 0, width: 1000, height: 700 },
      [],
      { width: 1440, height: 900 },
    ],
  ])('%s', (_why, saved, displays, expected) => {
    expect(clampToDisplays(saved, displays)).toEqual(expected);
  });
});

describe('the window state file', () => {
  it('round-trips, written 0600 with a schema version', async () => {
    const dataDir = dirs();
    expect(await loadWindowState(dataDir)).toBeUndefined();
    await saveWindowState(dataDir, { bounds: { x: 10, y: 20, width: 1300, height: 850 }, maximized: true });
    const file = path.join(dataDir, WINDOW_STATE_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await loadWindowState(dataDir)).toEqual({
      bounds: { x: 10, y: 20, width: 1300, height: 850 },
      maximized: true,
    });
  });

  it('a corrupt or nonsensical file is moved aside and the window opens at its default', async () => {
    for (const text of [
      '{not json',
      JSON.stringify({ version: 1, bounds: { x: 0, y: 0, width: -5, height: 1e9 }, maximized: false }),
    ]) {
      const dataDir = dirs();
      writeFileSync(path.join(dataDir, WINDOW_STATE_FILE), text);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      expect(await loadWindowState(dataDir)).toBeUndefined();
      warn.mockRestore();
      expect(existsSync(path.join(dataDir, WINDOW_STATE_FILE))).toBe(false);
      expect(readdirSync(dataDir).some((f) => f.startsWith(`${WINDOW_STATE_FILE}.corrupt-`))).toBe(true);
    }
  });

  it('follows the window: saved once it settles after a move, and at once when it closes', async () => {
    vi.useFakeTimers();
    try {
      const dataDir = dirs();
      const win = new BrowserWindow({ x: 0, y: 0, width: 1000, height: 700 });
      const tracker = trackWindowState(win as unknown as ElectronWindow, dataDir);
      win.bounds = { x: 40, y: 30, width: 1100, height: 720 };
      win.emit('move');
      win.emit('resize');
      expect(existsSync(path.join(dataDir, WINDOW_STATE_FILE))).toBe(false);
      vi.advanceTimersByTime(600);
      vi.useRealTimers();
      await tracker.flush();
      expect((await loadWindowState(dataDir))?.bounds).toEqual({ x: 40, y: 30, width: 1100, height: 720 });
      win.bounds = { x: 0, y: 0, width: 960, height: 600 };
      win.maximized = true;
      win.emit('close');
      await tracker.flush();
      expect(await loadWindowState(dataDir)).toEqual({
        bounds: { x: 0, y: 0, width: 960, height: 600 },
        maximized: true,
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
