/**
 * The application menu: File, Edit, View, Window, Help, built from roles so the platform's own labels and
 * shortcuts apply. Reload and the developer tools exist only in a development build: in a packaged app a
 * reload would abort every run in flight, and DevTools would hand the renderer's internals to anyone at the keyboard.
 */
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  appName: string;
}

export function menuTemplate({ isPackaged, platform, appName }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const view: MenuItemConstructorOptions[] = isPackaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }];
  view.push(
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  );
  // Ctrl/Cmd+W closes a request tab, as in Postman or an editor (docs/architecture.md §5): closing the window moves
  // to Ctrl/Cmd+Shift+W, so the menu never takes the key before the page sees it.
  const closeWindow: MenuItemConstructorOptions = { role: 'close', accelerator: 'CmdOrCtrl+Shift+W' };
  const windowItems: MenuItemConstructorOptions[] = mac
    ? [{ role: 'minimize' }, { role: 'zoom' }, closeWindow, { type: 'separator' }, { role: 'front' }]
    : [{ role: 'minimize' }, closeWindow];
  const template: MenuItemConstructorOptions[] = [
    { label: 'File', submenu: [mac ? closeWindow : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    { label: 'View', submenu: view },
    { label: 'Window', role: 'windowMenu', submenu: windowItems },
    {
      label: 'Help',
      role: 'help',
      submenu: [{ role: 'about', label: `About ${appName}` }],
    },
  ];
  return mac ? [{ role: 'appMenu' }, ...template] : template;
}

export function installMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options)));
}
