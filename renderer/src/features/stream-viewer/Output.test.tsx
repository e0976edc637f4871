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

  it('every Copy says "Copied" for a moment, to the eye and to a screen reader, then reads as before', async () => {
    vi.useFakeTimers();
    try {
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => {} }, configurable: true });
      render(<Output transcript={of(reply)} live={false} />);
      for (const name of ['Copy Markdown', 'Copy code']) {
        const button = screen.getByRole('button', { name });
        const before = button.textContent;
        await act(async () => fireEvent.click(button));
        expect(button.textContent).toBe('Copied');
        const live = button.nextElementSibling!;
        expect(live.getAttribute('aria-live')).toBe('polite');
        expect(live.textContent).toBe('Copied');
        await act(async () => vi.advanceTimersByTime(2000));
        expect(button.textContent).toBe(before);
        expect(live.textContent).toBe('');
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Output: gateway text that would blank or freeze the window', () => {
  const of = (text: string) => ({ blocks: [{ kind: 'text' as const, text }], usage: {} });
  const wideTable = '|' + 'a|'.repeat(1000) + '\n|' + '-|'.repeat(1000) + '\n' + 'x\n'.repeat(1992);

  it.each([
    ['a list nested 1,500 deep', '- '.repeat(1500) + 'x', 'Shown as text: nested 1,500 deep', 'ul'],
    ['a quote nested 7,980 deep', '>'.repeat(7980), 'Shown as text: nested 7,980 deep', 'blockquote'],
    ['a 1,000-column table of short rows', wideTable, 'Shown as text: a table of 1,993,000 cells', 'table, td'],
  ])('%s shows as text with a note, live and finished, and the page goes on', (_name, text, note, element) => {
    const { rerender } = render(
      <>
        <Output transcript={of(text)} live={true} />
        <button type="button">Elsewhere</button>
      </>,
    );
    rerender(
      <>
        <Output transcript={of(text)} live={false} />
        <button type="button">Elsewhere</button>
      </>,
    );
    const region = screen.getByRole('region', { name: 'Output' });
    expect(screen.getByRole('note').textContent).toBe(note);
    expect(region.textContent).toContain(text.trim().slice(-200));
    // Not parsed at all: not one element of what the markdown would have made.
    expect(region.querySelector(element)).toBeNull();
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toBeTruthy();
  });

  it('opened whole from History (never streamed here), each block is still checked', () => {
    const text = 'A fine intro.\n\n' + '- '.repeat(1500) + 'x\n\nA fine end with **bold**.';
    render(<Output transcript={of(text)} live={false} />);
    const region = screen.getByRole('region', { name: 'Output' });
    expect(screen.getByRole('note').textContent).toBe('Shown as text: nested 1,500 deep');
    expect(region.querySelector('.markdown strong')?.textContent).toBe('bold');
    expect(region.textContent).toContain('A fine intro.');
  });

  it('an ordinary nested list and table still render as Markdown', () => {
    const text = '- a\n  - b\n    - c\n\n| k | v |\n|---|---|\n| 1 | 2 |\n| 3 |\n\n> quoted *and* **strong**';
    render(<Output transcript={of(text)} live={false} />);
    const region = screen.getByRole('region', { name: 'Output' });
    expect(region.querySelectorAll('.markdown ul ul ul li')).toHaveLength(1);
    expect(region.querySelectorAll('.markdown table td')).toHaveLength(4);
    expect(region.querySelector('.markdown blockquote strong')?.textContent).toBe('strong');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('a link opens in a new tab, never in place of the app, and tells the page nothing', () => {
    render(<Output transcript={of('See [the docs](https://docs.example.com/page).')} live={false} />);
    const link = screen.getByRole('link', { name: 'the docs' });
    expect(link.getAttribute('href')).toBe('https://docs.example.com/page');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
