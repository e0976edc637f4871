/**
 * The desktop host's Confirmer: a native message box on the app window, drawn by the main process where the
 * page cannot reach, with No as the default and the answer on Esc or close (docs/security.md §3).
 */
import { dialog, type BrowserWindow } from 'electron';
import type { Confirmer } from '../core/confirmer';

const BUTTONS = ['No', 'Yes'];
const YES = 1;

/** `window`: the app window to attach the dialog to, when there is one (it then blocks that window). */
export function createDialogConfirmer(window: () => BrowserWindow | undefined): Confirmer {
  return {
    async confirm({ title, message, detail }) {
      const options = {
        type: 'warning' as const,
        buttons: BUTTONS,
        defaultId: 0,
        cancelId: 0,
        noLink: true,
        title,
        message,
        detail,
      };
      const win = window();
      const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
      return response === YES;
    },
  };
}
