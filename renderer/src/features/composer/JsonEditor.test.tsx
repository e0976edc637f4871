import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { JsonEditor } from './JsonEditor';

afterEach(cleanup);

const viewIn = (container: HTMLElement) =>
  EditorView.findFromDOM(container.querySelector('.cm-editor') as HTMLElement)!;

describe('JsonEditor', () => {
  it('keeps its configuration when its parent renders again with a new handler, and sends typing to the newest handler', () => {
    const first = vi.fn();
    const { container, rerender } = render(
      <JsonEditor label="Request JSON" value='{"a":1}' onChange={(t) => first(t)} />,
    );
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

  it('shows an edit made outside it at once, even right after a keystroke, and the next keystroke builds on it', () => {
    const onChange = vi.fn();
    const { container, rerender } = render(<JsonEditor label="Request JSON" value='{"a":1}' onChange={onChange} />);
    const view = viewIn(container);
    const type = (text: string) =>
      act(() => view.dispatch({ changes: { from: view.state.doc.length - 1, insert: text }, userEvent: 'input.type' }));
    type(',"b":2');
    expect(onChange).toHaveBeenLastCalledWith('{"a":1,"b":2}');
    rerender(<JsonEditor label="Request JSON" value='{"a":1,"b":2}' onChange={onChange} />);
    // A form field changes the body a moment after the keystroke.
    rerender(<JsonEditor label="Request JSON" value='{"a":3,"b":2}' onChange={onChange} />);
    expect(view.state.doc.toString()).toBe('{"a":3,"b":2}');
    type(',"c":4');
    expect(onChange).toHaveBeenLastCalledWith('{"a":3,"b":2,"c":4}');
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('names its editable text box by its label, where a screen reader lands', () => {
    render(<JsonEditor label="Request JSON" value='{"a":1}' onChange={() => undefined} />);
    expect(screen.getByRole('textbox', { name: 'Request JSON' }).classList).toContain('cm-content');
  });
});
