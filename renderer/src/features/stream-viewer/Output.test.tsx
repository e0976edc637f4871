import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createFold } from '../../../../shared/protocols';
import { Output } from './Output';

afterEach(cleanup);

describe('Output', () => {
  it('a finished reply shows HTML-looking text as written: not rendered, not dropped', () => {
    const text = 'Wrap it in a <div> and close with </div>. Use generics: Array<string>.\n\n<img src="x" onerror="alert(1)">\n\n**bold** stays markdown.';
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
    const chunk = (delta: unknown) => JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] });
    fold.push({ data: chunk({ role: 'assistant', content: null }) });
    fold.push({ data: chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] }) });
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
