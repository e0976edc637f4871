/**
 * The protocol modules behind one switch: the core and the renderer fold streams and read bodies through
 * here so both see identical transcripts.
 */
import { createChatFold, readChatResponse } from './chat';
import { createMessagesFold, readMessagesResponse } from './messages';
import { createResponsesFold } from './responses';
import { readResponsesResponse } from './responses-body';
import { callIdWarnings, type AppendWatch } from './fold-kit';
import { createEventParser } from './sse';
import type { ProtocolId, ResponseReading, StreamFold } from './types';

export * from './types';
export {
  createEventParser,
  createSseReader,
  eventTypeOf,
  parseEvent,
  type SseReader,
  type SseReaderHandlers,
} from './sse';
export { createMessagesFold, readMessagesResponse, messagesUsage } from './messages';
export { createChatFold, readChatResponse } from './chat';
export { createResponsesFold } from './responses';
export { readResponsesResponse } from './responses-body';
export {
  appendAssistantTurn,
  appendToolResults,
  appendUserTurn,
  defaultBody,
  DEFAULT_PROMPT,
  getModel,
  isStreaming,
  maxTokensField,
  pendingToolCalls,
  type PendingToolCall,
  type ToolResult,
} from './compose';

function protocolFold(protocol: ProtocolId, watch?: AppendWatch): StreamFold {
  switch (protocol) {
    case 'messages':
      return createMessagesFold(watch);
    case 'chat':
      return createChatFold(watch);
    case 'responses':
      return createResponsesFold(watch);
  }
}

function protocolReading(protocol: ProtocolId, json: unknown): ResponseReading {
  switch (protocol) {
    case 'messages':
      return readMessagesResponse(json);
    case 'chat':
      return readChatResponse(json);
    case 'responses':
      return readResponsesResponse(json);
  }
}

/** `watch` is told of each piece of text a delta appends (fold-kit.ts). */
export function createFold(protocol: ProtocolId, watch?: AppendWatch): StreamFold {
  const fold = protocolFold(protocol, watch);
  // A caller that parsed the event already (the core, for its Events list) passes it; the renderer does not, and
  // its events are parsed with what this stream taught its parser, made on first need. Tool-call ids are
  // checked when warnings are read.
  let parse: ReturnType<typeof createEventParser> | undefined;
  return {
    ...fold,
    push: (message, parsed = (parse ??= createEventParser())(message)) => fold.push(message, parsed),
    warnings: () => [...fold.warnings(), ...callIdWarnings(fold.blocks())],
    end() {
      const outcome = fold.end();
      return { ...outcome, warnings: [...outcome.warnings, ...callIdWarnings(fold.blocks())] };
    },
  };
}

export function readResponse(protocol: ProtocolId, json: unknown): ResponseReading {
  const reading = protocolReading(protocol, json);
  return { ...reading, warnings: [...reading.warnings, ...callIdWarnings(reading.transcript.blocks)] };
}
