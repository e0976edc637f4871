/**
 * The whole preload: the contract's API over ipcRenderer, one function per call. Nothing generic is exposed
 * (no invoke(channel)), and the IpcRendererEvent (which carries `sender`) never reaches the page.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createGatewayApi, type GatewayApi, type Result } from '../../shared/contract';

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
