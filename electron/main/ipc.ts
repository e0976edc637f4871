/**
 * The Electron transport of the contract: one ipcMain.handle per call name, each checking the sender frame
 * and handing the raw payload to the core, which parses it and answers with a Result (errors thrown across
 * IPC would lose everything but their message).
 */
import { ipcMain, type WebContents } from 'electron';
import { CALL_NAMES, fail } from '../../shared/contract';
import type { Core, Receiver } from '../core/service';
import { isAppFrame } from './security';

export function registerIpc(core: Core): void {
  const receivers = new WeakMap<WebContents, Receiver>();
  const receiverFor = (wc: WebContents): Receiver => {
    let r = receivers.get(wc);
    if (!r) {
      const receiver: Receiver = {
        send(name, payload) {
          if (!wc.isDestroyed()) wc.send(name, payload);
        },
      };
      r = receiver;
      receivers.set(wc, receiver);
      // A closed or reloaded window has no one left to report its runs to: abort them.
      wc.once('destroyed', () => core.receiverClosed(receiver));
      wc.on('did-start-navigation', (details) => {
        if (details.isMainFrame && !details.isSameDocument) core.receiverClosed(receiver);
      });
    }
    return r;
  };
  for (const name of CALL_NAMES) {
    ipcMain.removeHandler(name);
    ipcMain.handle(name, (event, input: unknown) => {
      if (!isAppFrame(event.senderFrame)) return fail('forbidden', 'Calls are accepted only from the app window.');
      return core.dispatch(name, input, receiverFor(event.sender));
    });
  }
}
