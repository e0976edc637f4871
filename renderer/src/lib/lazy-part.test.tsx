import { Component, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { lazyPart } from './lazy-part';

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;
/** Holds state of its own (what is typed), which a remount would lose. */
function Field({ name }: { name: string }) {
  const [text, setText] = useState('');
  return <input aria-label={name} value={text} onChange={(e) => setText(e.target.value)} />;
}
const placeholder = ({ name }: { name: string }, failure?: ReactNode) => (
  <div>
    {failure}
    <span>waiting for {name}</span>
  </div>
);

class Outer extends Component<{ children: ReactNode }, { error?: string }> {
  override state: { error?: string } = {};
  static getDerivedStateFromError(e: Error) {
    return { error: e.message };
  }
  override render() {
    return this.state.error ? <p>outer caught {this.state.error}</p> : this.props.children;
  }
}

describe('lazyPart', () => {
  it('shows the placeholder while its code loads, then the part; a later mount renders at once', async () => {
    const chunk = deferred<typeof Greeting>();
    const load = vi.fn(() => chunk.promise);
    const Part = lazyPart(load, 'the greeting', placeholder);
    const first = render(<Part name="Ada" />);
    expect(screen.getByText('waiting for Ada')).toBeTruthy();
    expect(screen.queryByText('Hello Ada')).toBeNull();
    await act(async () => chunk.resolve(Greeting));
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByText('waiting for Ada')).toBeNull();
    first.unmount();

    render(<Part name="Grace" />);
    expect(screen.getByText('Hello Grace')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps the loaded part mounted when its props change: what is typed in it stays, and so does its focus', async () => {
    const chunk = deferred<typeof Field>();
    const Part = lazyPart(() => chunk.promise, 'the field', placeholder);
    const view = render(<Part name="Ada" />);
    await act(async () => chunk.resolve(Field));
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Ada' });
    fireEvent.change(input, { target: { value: 'typed' } });
    input.focus();
    view.rerender(<Part name="Ada" />);
    expect(screen.getByRole('textbox', { name: 'Ada' })).toBe(input);
    expect(input.value).toBe('typed');
    expect(document.activeElement).toBe(input);
  });

  it('says which part could not be loaded, with a Retry that fetches it again and then shows it', async () => {
    const load = vi
      .fn<() => Promise<typeof Greeting>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(Greeting);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Part = lazyPart(load, 'the greeting', placeholder);
    render(<Part name="Ada" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the greeting: Failed to fetch dynamically imported module');
    // The placeholder stays beside the message: what it shows (plain text, a read-only body) is still there.
    expect(screen.getByText('waiting for Ada')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('leaves an error thrown by the loaded part to the boundaries above, not as a load failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = (): ReactNode => {
      throw new Error('broken part');
    };
    const Part = lazyPart(
      () => Promise.resolve(Broken),
      'the broken part',
      () => null,
    );
    render(
      <Outer>
        <Part />
      </Outer>,
    );
    expect(await screen.findByText('outer caught broken part')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('with `after`, shows the placeholder and fetches nothing until it settles', async () => {
    const startUp = deferred<void>();
    const load = vi.fn(() => Promise.resolve(Greeting));
    const Part = lazyPart(load, 'the greeting', placeholder, startUp.promise);
    render(<Part name="Ada" />);
    await act(async () => {});
    expect(screen.getByText('waiting for Ada')).toBeTruthy();
    expect(load).not.toHaveBeenCalled();
    await act(async () => startUp.resolve());
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
