/**
 * Electron host entry point. Everything it does is in app-host.ts (lifecycle, window, app:// protocol, IPC);
 * everything else is the core, shared with the browser host.
 */
import { launch } from './app-host';

launch(__dirname);
