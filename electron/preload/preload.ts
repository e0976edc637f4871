/**
 * The whole preload: the contract's API over ipcRenderer, one function per call. Nothing generic is exposed
 * (no invoke(channel)), and the IpcRendererEvent (which carries `sender`) never reaches the page. It imports
 * the contract's names module only (shared/contract/api.ts): the schemas stay out of this bundle.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createGatewayApi, type GatewayApi } from '../../shared/contract/api';
import type { Result } from '../../shared/contract/define';

const api = createGatewayApi({
  invoke: (name, input) => ipcRenderer.invoke(name, input) as Promise<Result<unknown>>,
  subscribe: (name, listener) => {
    const handler = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(name, handler);
    return () => {
      ipcRenderer.removeListener(name, handler);
    };
  },
}) satisfies GatewayApi;

contextBridge.exposeInMainWorld('gateway', api);
