import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { OutputBoundary } from './OutputBoundary';

afterEach(cleanup);

function Throws({ text }: { text: string }): never {
  throw new RangeError(`Maximum call stack size exceeded near ${text.length} characters`);
}

describe('OutputBoundary', () => {
  it('a render that throws shows that output as text with a note; its siblings stay rendered', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const text = '- - - x (the reply as the gateway sent it)';
    render(
      <main>
        <OutputBoundary text={() => text} resetKey={text}>
          <Throws text={text} />
        </OutputBoundary>
        <button type="button">Send</button>
        <OutputBoundary text={() => 'other'} resetKey="other">
          <p>Another output, fine</p>
        </OutputBoundary>
      </main>,
    );
    expect(screen.getByRole('note').textContent).toContain('Shown as text: it could not be rendered (RangeError');
    expect(screen.getByRole('main').textContent).toContain(text);
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(screen.getByText('Another output, fine')).toBeTruthy();
    quiet.mockRestore();
  });

  it('tries again when its text changes', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(
      <OutputBoundary text={() => 'bad'} resetKey="bad">
        <Throws text="bad" />
      </OutputBoundary>,
    );
    expect(screen.getByRole('note')).toBeTruthy();
    rerender(
      <OutputBoundary text={() => 'good'} resetKey="good">
        <p>Rendered again</p>
      </OutputBoundary>,
    );
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByText('Rendered again')).toBeTruthy();
    quiet.mockRestore();
  });
});
