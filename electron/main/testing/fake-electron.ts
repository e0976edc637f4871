/**
 * A thin stand-in for the `electron` module, for unit tests of the host where the Electron binary cannot run.
 * It only records what the host registers (handlers, listeners, windows, menus) and lets a test fire events
 * at it; it decides nothing itself, so every assertion lands on the host's own code. Use with
 * `vi.mock('electron', () => import('./testing/fake-electron'))` and call `resetFakeElectron()` between tests.
 */
import { EventEmitter } from 'node:events';

type Handler = (event: unknown, input: unknown) => unknown;

export class FakeWebContents extends EventEmitter {
  readonly sent: [string, unknown][] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  destroyed = false;
  send(name: string, payload: unknown): void {
    this.sent.push([name, payload]);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}

export class BrowserWindow extends EventEmitter {
  static windows: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.windows;
  }
  static fromWebContents(contents: unknown): BrowserWindow | null {
    return BrowserWindow.windows.find((w) => w.webContents === contents) ?? null;
  }
  readonly webContents = new FakeWebContents();
  loadedUrl: string | undefined;
  bounds: { x: number; y: number; width: number; height: number };
  maximized = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    const o = options as { x?: number; y?: number; width?: number; height?: number };
    this.bounds = { x: o.x ?? 0, y: o.y ?? 0, width: o.width ?? 800, height: o.height ?? 600 };
    BrowserWindow.windows.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return false;
  }
  show(): void {}
  focus(): void {}
  restore(): void {}
}

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(name: string, handler: Handler): void {
    if (this.handlers.has(name)) throw new Error(`Attempted to register a second handler for '${name}'`);
    this.handlers.set(name, handler);
  },
  removeHandler(name: string): void {
    this.handlers.delete(name);
  },
};

export const protocol = {
  privileged: [] as unknown[],
  handlers: new Map<string, (request: Request) => Promise<Response>>(),
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    this.handlers.set(scheme, handler);
  },
};

type PermissionRequest = (wc: unknown, permission: string, callback: (granted: boolean) => void) => void;
export const session = {
  defaultSession: {
    permissionRequest: undefined as PermissionRequest | undefined,
    permissionCheck: undefined as ((...args: unknown[]) => boolean) | undefined,
    setPermissionRequestHandler(handler: PermissionRequest): void {
      this.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void {
      this.permissionCheck = handler;
    },
  },
};

/** A keychain that really encrypts (reversibly, per launch key) so a plain key can be told from a stored one. */
export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret',
  isEncryptionAvailable(): boolean {
    return this.available;
  },
  getSelectedStorageBackend(): string {
    return this.backend;
  },
  encryptString(text: string): Buffer {
    if (!this.available) throw new Error('Encryption is not available.');
    return Buffer.from(Buffer.from(text, 'utf8').map((b) => b ^ 0x5a));
  },
  decryptString(blob: Buffer): string {
    if (!this.available) throw new Error('Decryption is not available.');
    return Buffer.from(blob.map((b) => b ^ 0x5a)).toString('utf8');
  },
};

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  },
};

export const Menu = {
  applied: undefined as unknown,
  buildFromTemplate(template: unknown[]): { items: unknown[] } {
    return { items: template };
  },
  setApplicationMenu(menu: unknown): void {
    this.applied = menu;
  },
};

interface FakeDisplay {
  workArea: { x: number; y: number; width: number; height: number };
}
export const screen = {
  displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] as FakeDisplay[],
  getAllDisplays(): FakeDisplay[] {
    return this.displays;
  },
  getPrimaryDisplay(): FakeDisplay {
    return this.displays[0];
  },
};

interface MessageBoxOptions {
  buttons?: string[];
  defaultId?: number;
  cancelId?: number;
  title?: string;
  message: string;
  detail?: string;
}
export const dialog = {
  errors: [] as [string, string][],
  /** Each message box shown, with the window it was attached to (undefined: none). */
  boxes: [] as { window: unknown; options: MessageBoxOptions }[],
  /** The options of each message box shown, in order. */
  get asked(): (MessageBoxOptions & { buttons: string[] })[] {
    return this.boxes.map((b) => ({ ...b.options, buttons: b.options.buttons ?? [] }));
  },
  /** The index of the button the next message boxes answer with, as the user would click; unset: the box's
   * cancel button, as a user who closes it. */
  answer: undefined as number | undefined,
  showErrorBox(title: string, message: string): void {
    this.errors.push([title, message]);
  },
  async showMessageBox(
    a: BrowserWindow | MessageBoxOptions,
    b?: MessageBoxOptions,
  ): Promise<{ response: number; checkboxChecked: boolean }> {
    const [window, options] = a instanceof BrowserWindow ? [a, b!] : [undefined, a as MessageBoxOptions];
    this.boxes.push({ window, options });
    return { response: this.answer ?? options.cancelId ?? 0, checkboxChecked: false };
  },
};

class FakeApp extends EventEmitter {
  isPackaged = false;
  paths = new Map<string, string>();
  getPath(name: string): string {
    return this.paths.get(name) ?? `/nonexistent/${name}`;
  }
  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getVersion(): string {
    return '0.0.0-test';
  }
  getName(): string {
    return 'Gateway Playground';
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  quit(): void {
    this.emit('quit-called');
  }
  exitCode: number | undefined;
  exit(code = 0): void {
    this.exitCode = code;
  }
}
export const app = new FakeApp();

export function resetFakeElectron(): void {
  ipcMain.handlers.clear();
  protocol.handlers.clear();
  protocol.privileged.length = 0;
  session.defaultSession.permissionRequest = undefined;
  session.defaultSession.permissionCheck = undefined;
  safeStorage.available = true;
  safeStorage.backend = 'gnome_libsecret';
  shell.opened.length = 0;
  Menu.applied = undefined;
  screen.displays = [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }];
  dialog.errors.length = 0;
  dialog.boxes.length = 0;
  dialog.answer = undefined;
  BrowserWindow.windows = [];
  app.removeAllListeners();
  app.isPackaged = false;
  app.exitCode = undefined;
  app.paths.clear();
}

export default { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, screen, session, shell };
