/**
 * The window's size and position, kept in the data folder (window-state.json, written atomically like every
 * other file) and restored on start, clamped to a display that exists now: a window saved on a monitor since
 * unplugged must not open off screen.
 */
import path from 'node:path';
import { z } from 'zod';
import type { BrowserWindow } from 'electron';
import { readJsonFile, writeJsonAtomic, writeQueue } from '../core/atomic-file';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1440, height: 900 };
export const MIN_SIZE = { width: 960, height: 600 };
export const WINDOW_STATE_FILE = 'window-state.json';
/** Moves and resizes come in bursts while dragging: one write once the window has settled. */
const SETTLE_MS = 500;

const coordinate = z.number().int().min(-100_000).max(100_000);
const length = z.number().int().min(1).max(100_000);
const StateFile = z.object({
  version: z.literal(1),
  bounds: z.object({ x: coordinate, y: coordinate, width: length, height: length }),
  maximized: z.boolean(),
});

const overlap = (a: Rect, b: Rect): number =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * Where the window opens: the saved bounds moved and shrunk into the work area they overlap most, or, when
 * none overlaps (the display is gone) or nothing was saved, the default size fitted to the first work area
 * with no position (the OS centres it).
 */
export function clampToDisplays(saved: Rect | undefined, workAreas: Rect[]): Rect | { width: number; height: number } {
  const primary = workAreas[0];
  const fallback = {
    width: primary ? Math.min(DEFAULT_SIZE.width, primary.width) : DEFAULT_SIZE.width,
    height: primary ? Math.min(DEFAULT_SIZE.height, primary.height) : DEFAULT_SIZE.height,
  };
  if (!saved || !primary) return fallback;
  const best = workAreas.reduce((a, b) => (overlap(saved, b) > overlap(saved, a) ? b : a));
  if (overlap(saved, best) === 0) return fallback;
  const width = clamp(saved.width, Math.min(MIN_SIZE.width, best.width), best.width);
  const height = clamp(saved.height, Math.min(MIN_SIZE.height, best.height), best.height);
  return {
    x: clamp(saved.x, best.x, best.x + best.width - width),
    y: clamp(saved.y, best.y, best.y + best.height - height),
    width,
    height,
  };
}

/** The saved state, or undefined when there is none or it cannot be read (a bad file is moved aside). */
export async function loadWindowState(dataDir: string): Promise<WindowState | undefined> {
  const read = await readJsonFile(path.join(dataDir, WINDOW_STATE_FILE), StateFile);
  if (read.problem) console.warn(read.problem.message);
  return read.value ? { bounds: read.value.bounds, maximized: read.value.maximized } : undefined;
}

export function saveWindowState(dataDir: string, state: WindowState): Promise<void> {
  return writeJsonAtomic(path.join(dataDir, WINDOW_STATE_FILE), { version: 1, ...state });
}

/**
 * Saves the window's normal (unmaximized) bounds when it settles after a move or resize, and at once when it
 * closes. `flush()` resolves when the last write has landed: quitting waits for it.
 */
export function trackWindowState(win: BrowserWindow, dataDir: string): { flush(): Promise<void> } {
  const queue = writeQueue();
  let timer: NodeJS.Timeout | undefined;
  let last: Promise<void> = Promise.resolve();
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    const state = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    last = queue(() => saveWindowState(dataDir, state)).catch((err: Error) => {
      console.warn(`The window's size and position could not be saved: ${err.message}`);
    });
  };
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(save, SETTLE_MS);
  };
  win.on('resize', settle);
  win.on('move', settle);
  win.on('maximize', settle);
  win.on('unmaximize', settle);
  win.on('close', save);
  return {
    flush: () => {
      if (timer) save();
      return last;
    },
  };
}
