import { describe, expect, it } from 'vitest';
import { eventsToSse, typeCounts, usageRows } from './format';

describe('stream viewer formatting', () => {
  it('copies events back as SSE text, with event lines only where they were sent', () => {
    const text = eventsToSse([
      { seq: 0, t: 1, type: 'message_start', event: 'message_start', data: '{"type":"message_start"}', size: 40 },
      { seq: 1, t: 2, type: 'chunk', data: '{"a":1}', size: 10 },
      { seq: 2, t: 3, type: '[DONE]', data: '[DONE]', size: 6 },
      { seq: 3, t: 4, type: 'comment', data: 'keep-alive', size: 12 },
    ]);
    expect(text).toBe('event: message_start\ndata: {"type":"message_start"}\n\ndata: {"a":1}\n\ndata: [DONE]\n\n: keep-alive\n\n');
  });

  it('labels usage the gateway did not report as "not reported", never 0', () => {
    expect(usageRows({ inputTotal: 10, output: 0 })).toEqual([
      ['input', '10'],
      ['output', '0'],
      ['cache read', 'not reported'],
      ['cache write', 'not reported'],
      ['reasoning', 'not reported'],
    ]);
  });

  it('counts event types for the filter, most frequent first', () => {
    const e = (type: string, seq: number) => ({ seq, t: seq, type, data: '{}', size: 2 });
    expect(typeCounts([e('a', 0), e('b', 1), e('b', 2)])).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
  });
});
