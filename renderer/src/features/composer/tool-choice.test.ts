import { describe, expect, it } from 'vitest';
import { toolChoiceValue, toolNames, withToolChoice } from './tool-choice';

describe('tool_choice in each protocol’s shape', () => {
  it('Messages: another type keeps the other fields, and drops name unless one tool is forced', () => {
    const b = { tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true } };
    expect(withToolChoice('messages', b, 'any').tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(withToolChoice('messages', {}, 'auto').tool_choice).toEqual({ type: 'auto' });
    expect(withToolChoice('messages', b, '')).toEqual({});
    expect(withToolChoice('chat', { tool_choice: 'auto' }, 'required').tool_choice).toBe('required');
  });

  it('forcing one named tool writes each protocol’s own object, and reads back as that tool', () => {
    const forced = {
      messages: { type: 'tool', name: 'get_weather' },
      chat: { type: 'function', function: { name: 'get_weather' } },
      responses: { type: 'function', name: 'get_weather' },
    } as const;
    for (const protocol of ['messages', 'chat', 'responses'] as const) {
      const body = withToolChoice(protocol, {}, 'tool:get_weather');
      expect(body.tool_choice, protocol).toEqual(forced[protocol]);
      expect(toolChoiceValue(protocol, body), protocol).toBe('tool:get_weather');
    }
  });

  it('reads tool names in each shape, and a choice the form does not write as "json", left as typed', () => {
    expect(toolNames('messages', { tools: [{ name: 'a' }, { name: 'b' }] })).toEqual(['a', 'b']);
    expect(toolNames('chat', { tools: [{ type: 'function', function: { name: 'c' } }] })).toEqual(['c']);
    expect(toolNames('responses', { tools: [{ type: 'function', name: 'd' }, { type: 'web_search' }] })).toEqual(['d']);
    const allowed = { tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] } };
    expect(toolChoiceValue('responses', allowed)).toBe('json');
    expect(withToolChoice('responses', allowed, 'json')).toBe(allowed);
  });
});
