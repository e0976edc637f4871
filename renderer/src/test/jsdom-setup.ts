/**
 * What jsdom lacks that the real components use, filled in once for every renderer test (vitest.config.ts
 * setupFiles). No layout: CodeMirror measures text ranges once a frame passes, so ranges get empty boxes. No
 * modal dialogs: showModal opens the dialog as a browser would.
 */
import { beforeAll } from 'vitest';
import { preloadLazyParts } from '../lib/lazy-part';

Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.setAttribute('open', '');
};

// The parts whose code the app fetches on first use (lib/lazy-part.tsx) are fetched before the tests, which then
// render them as a window does once they have arrived; lib/lazy-part.test.tsx covers the loading itself.
beforeAll(preloadLazyParts);
