/**
 * What jsdom lacks that the real components use, filled in once for every renderer test (vitest.config.ts
 * setupFiles). No layout: CodeMirror measures text ranges once a frame passes, so ranges get empty boxes. No
 * modal dialogs: showModal opens the dialog as a browser would.
 */
Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.setAttribute('open', '');
};
