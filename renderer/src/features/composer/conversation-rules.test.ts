import { describe, expect, it } from 'vitest';
import { answersConversation, conversationProblem, emptiedConversation } from './conversation-rules';

const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

describe('which reply still answers the conversation', () => {
  it('is the one whose sent turns the body still starts with, whatever was added after or in the system prompt', () => {
    const sent = { system: 'a', messages: [user('q')] };
    expect(answersConversation('messages', sent, { system: 'b', messages: [user('q'), assistant('r')] })).toBe(true);
    expect(answersConversation('messages', sent, { messages: [] })).toBe(false);
    expect(answersConversation('messages', sent, { messages: [user('q, edited')] })).toBe(false);
    // Chat's system turn is the system prompt, not the conversation.
    const chatSent = { messages: [{ role: 'system', content: 'old' }, user('q')] };
    expect(answersConversation('chat', chatSent, { messages: [{ role: 'system', content: 'new' }, user('q')] })).toBe(
      true,
    );
    // A Responses input sent as a string reads as the user item the composer turns it into.
    expect(answersConversation('responses', { input: 'q' }, { input: [user('q'), assistant('r')] })).toBe(true);
  });
});

describe('a conversation a protocol refuses', () => {
  it('is one with no turn or an assistant first, on Messages only', () => {
    expect(conversationProblem('messages', { messages: [] })).toMatch(/at least one turn/);
    expect(conversationProblem('messages', { messages: [assistant('r'), user('q')] })).toMatch(
      /must start with a user turn/,
    );
    expect(conversationProblem('messages', { messages: [user('q'), assistant('prefill')] })).toBeUndefined();
    expect(conversationProblem('chat', { messages: [assistant('r')] })).toBeUndefined();
  });
});

describe('New conversation', () => {
  it('keeps Chat’s system turn and drops the stored reply Responses would continue from', () => {
    const chat = { model: 'm', messages: [{ role: 'system', content: 's' }, user('q')] };
    expect(emptiedConversation('chat', chat)).toEqual({ model: 'm', messages: [{ role: 'system', content: 's' }] });
    const responses = { model: 'm', instructions: 'i', previous_response_id: 'resp_1', input: [user('q')] };
    expect(emptiedConversation('responses', responses)).toEqual({ model: 'm', instructions: 'i', input: [] });
    expect(emptiedConversation('messages', { system: 's', messages: [user('q')] })).toEqual({
      system: 's',
      messages: [],
    });
  });
});
