import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { JsonEditor } from './JsonEditor';

afterEach(cleanup);

const viewIn = (container: HTMLElement) => EditorView.findFromDOM(container.querySelector('.cm-editor') as HTMLElement)!;

describe('JsonEditor', () => {
  it('keeps its configuration when its parent renders again with a new handler, and sends typing to the newest handler', () => {
    const first = vi.fn();
    const { container, rerender } = render(<JsonEditor label="Request JSON" value='{"a":1}' onChange={(t) => first(t)} />);
    const view = viewIn(container);
    const state = view.state;
    const second = vi.fn();
    rerender(<JsonEditor label="Request JSON" value='{"a":1}' onChange={(t) => second(t)} />);
    // A reconfiguration would have dispatched a transaction and replaced the state.
    expect(view.state).toBe(state);
    act(() => view.dispatch({ changes: { from: view.state.doc.length - 1, insert: ',"b":2' } }));
    expect(second).toHaveBeenCalledWith('{"a":1,"b":2}');
    expect(first).not.toHaveBeenCalled();
  });
});
