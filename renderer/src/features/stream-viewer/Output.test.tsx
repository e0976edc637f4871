import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createFold } from '../../../../shared/protocols';
import { Output } from './Output';

afterEach(cleanup);

describe('Output', () => {
  it('a finished reply shows HTML-looking text as written: not rendered, not dropped', () => {
    const text =
      'Wrap it in a <div> and close with </div>. Use generics: Array<string>.\n\n<img src="x" onerror="alert(1)">\n\n**bold** stays markdown.';
    const transcript = { blocks: [{ kind: 'text' as const, text }], usage: {} };
    const { rerender } = render(<Output transcript={transcript} live={true} />);
    rerender(<Output transcript={transcript} live={false} />);
    const region = screen.getByRole('region', { name: 'Output' });
    expect(region.textContent).toContain('Wrap it in a <div> and close with </div>. Use generics: Array<string>.');
    expect(region.textContent).toContain('<img src="x" onerror="alert(1)">');
    expect(region.querySelector('.markdown img, .markdown div, .markdown string')).toBeNull();
    expect(region.querySelector('.markdown strong')?.textContent).toBe('bold');
  });

  it('a tool call cut off mid-arguments says "arriving" while the run streams and "incomplete" once it ended', () => {
    const fold = createFold('chat');
    const chunk = (delta: unknown) =>
      JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] });
    fold.push({ data: chunk({ role: 'assistant', content: null }) });
    fold.push({
      data: chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      }),
    });
    fold.push({ data: chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Pa' } }] }) });
    const transcript = fold.transcript();
    const { rerender } = render(<Output transcript={transcript} live={true} />);
    const region = screen.getByRole('region', { name: 'Output' });
    expect(region.textContent).toContain('arguments arriving…');
    // The connection closed: no more arguments will come.
    rerender(<Output transcript={transcript} live={false} />);
    expect(region.textContent).not.toContain('arriving');
    expect(region.querySelector('.tool-call')?.textContent).toContain('arguments incomplete');
    expect(region.querySelector('.tool-call pre')?.textContent).toBe('{"city":"Pa');
  });
});

describe('Output: Markdown, code and copying', () => {
  const reply = 'Intro with **bold**.\n\n```python\nprint("hi")\n```\n\nAfter the code.';
  const of = (text: string) => ({ blocks: [{ kind: 'text' as const, text }], usage: {} });

  it('renders Markdown while it streams, and a block that has ended keeps its DOM as more text comes', () => {
    const { rerender } = render(<Output transcript={of('Intro with **bold**.\n\nSecond')} live={true} />);
    const region = screen.getByRole('region', { name: 'Output' });
    const bold = region.querySelector('.markdown strong');
    expect(bold?.textContent).toBe('bold');
    rerender(<Output transcript={of('Intro with **bold**.\n\nSecond para grows.\n\n# Head')} live={true} />);
    expect(region.querySelector('.markdown strong')).toBe(bold);
    expect(region.querySelector('.markdown h1')?.textContent).toBe('Head');
    rerender(<Output transcript={of('Intro with **bold**.\n\nSecond para grows.\n\n# Head')} live={false} />);
    expect(region.querySelector('.markdown strong')).toBe(bold);
  });

  it('highlights a fenced code block by its language and gives it its own copy button', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Output transcript={of(reply)} live={false} />);
    const code = screen.getByRole('region', { name: 'Output' }).querySelector('pre code.language-python')!;
    expect(code.querySelector('.hljs-built_in, .hljs-string')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy code' })));
    expect(writeText).toHaveBeenLastCalledWith('print("hi")\n');
  });

  it('copies the output as Markdown (as written) or as text (as read)', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Output transcript={of(reply)} live={false} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Markdown' })));
    expect(writeText).toHaveBeenLastCalledWith(reply);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy text' })));
    const text = (writeText.mock.calls.at(-1) as unknown as [string])[0];
    expect(text).toContain('Intro with bold.');
    expect(text).not.toContain('**');
    expect(text).not.toContain('```');
  });
});
