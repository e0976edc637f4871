import { memo, useMemo, useRef, type ReactNode } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { answersConversation } from '../composer/conversation-rules';
import { useOwnRun } from '../composer/use-own-run';
import { branchedAt, editedMessage, keepTurns, shownVariant, turnCount, withReplyAt } from './conversation-edits';
import { MessageItem, ReplyItem, type MessageActions } from './MessageItem';
import { messagesOf, type MessageView } from './messages-view';
import './conversation.css';

export interface ConversationViewProps {
  protocol: ProtocolId;
  /** Send is off, or a run is on: Edit, Regenerate and Send from an edit wait. */
  busy: boolean;
  /** Regenerate (see `useComposerRun`): `from` is where the reply starts in the body, if it is there. */
  onRegenerate(from?: number): void;
  onSend(): void;
}

type Body = Record<string, unknown>;
type Item = { kind: 'message'; m: MessageView } | { kind: 'reply' };

/**
 * The run on view whose reply answers the body and is not in it: where it goes. Not its transcript: that changes
 * every frame of a stream, and only the reply itself re-renders for it (`ReplyItem`), not every message.
 */
function useReply(protocol: ProtocolId) {
  const own = useOwnRun(protocol);
  const body = useAppStore((s) => s.composers[protocol].body);
  const continuedRunId = useAppStore((s) => s.composers[protocol].continuedRunId);
  const shows = useAppStore((s) => {
    const run = own.ownRunId ? s.runs[own.ownRunId] : undefined;
    return !!run && (run.status !== 'done' || run.transcript.blocks.length > 0);
  });
  const answers = useMemo(
    () => !!own.sent && answersConversation(protocol, own.sent, body),
    [protocol, own.sent, body],
  );
  const at = useMemo(() => (own.sent ? turnCount(protocol, own.sent) : 0), [protocol, own.sent]);
  const runId = own.ownRunId && shows && answers && continuedRunId !== own.ownRunId ? own.ownRunId : undefined;
  return useMemo(() => (runId ? { runId, at } : undefined), [runId, at]);
}

type Reply = ReturnType<typeof useReply>;
const transcriptOf = (runId: string) => useAppStore.getState().runs[runId]?.transcript ?? { blocks: [], usage: {} };

/** What Branch at `item` keeps: the turns up to it, with the reply shown before it joined at its place. */
function branchBody(protocol: ProtocolId, body: Body, item: Item, reply: Reply): Body {
  const upTo = item.kind === 'message' ? branchedAt(protocol, body, item.m) : keepTurns(protocol, body, reply?.at ?? 0);
  const replyBefore = reply && (item.kind === 'reply' || item.m.turn >= reply.at);
  return replyBefore ? withReplyAt(protocol, upTo, reply.at, transcriptOf(reply.runId)) : upTo;
}

/** Past this many messages only those in view are rendered: a long session stays as quick to type into. */
const VIRTUAL_FROM = 40;
const UNLAID = { width: 600, height: 600 };

function List({ items, render }: { items: Item[]; render: (item: Item, i: number) => ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const long = items.length > VIRTUAL_FROM;
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; nothing memoizes its API
  const virtual = useVirtualizer({
    count: long ? items.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => 90,
    overscan: 6,
    initialRect: UNLAID,
    observeElementRect: (instance, cb) => observeElementRect(instance, (rect) => cb(rect.height ? rect : UNLAID)),
  });
  if (!long) return <div className="conversation-list">{items.map(render)}</div>;
  return (
    <div className="conversation-list virtual" ref={scroller}>
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((v) => (
          <div
            key={v.key}
            data-index={v.index}
            ref={virtual.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
          >
            {render(items[v.index], v.index)}
          </div>
        ))}
      </div>
    </div>
  );
}

function Variants({ protocol, shown, count }: { protocol: ProtocolId; shown: number; count: number }) {
  const variantShown = useAppStore((s) => s.conversationVariantShown);
  return (
    <span className="variants" role="group" aria-label="Replies">
      <button
        type="button"
        className="ghost small"
        aria-label="Previous reply"
        disabled={shown === 0}
        onClick={() => variantShown(protocol, shown - 1)}
      >
        ‹
      </button>
      <span className="small">
        {shown + 1} of {count}
      </span>
      <button
        type="button"
        className="ghost small"
        aria-label="Next reply"
        disabled={shown === count - 1}
        onClick={() => variantShown(protocol, shown + 1)}
      >
        ›
      </button>
    </span>
  );
}

/** The body's messages, with the open reply after the turns it answered. */
function useItems(protocol: ProtocolId) {
  const body = useAppStore((s) => s.composers[protocol].body);
  const reply = useReply(protocol);
  const messages = useMemo(() => messagesOf(protocol, body), [protocol, body]);
  const items = useMemo<Item[]>(() => {
    const list: Item[] = messages.map((m) => ({ kind: 'message', m }));
    if (!reply) return list;
    const at = messages.findIndex((m) => m.turn >= reply.at);
    list.splice(at < 0 ? list.length : at, 0, { kind: 'reply' });
    return list;
  }, [messages, reply]);
  const last = items[items.length - 1];
  const lastIsReply = last?.kind === 'reply' || (last?.kind === 'message' && last.m.role === 'assistant');
  return { body, items, reply, lastIsReply };
}

/**
 * The request's conversation as messages, beside the form and the JSON: the same body (the store's), so the
 * three always agree, and what Send sends is what is shown here (the open reply joins at its place).
 */
export const ConversationView = memo(function ConversationView({
  protocol,
  busy,
  onRegenerate,
  onSend,
}: ConversationViewProps) {
  const { body, items, reply, lastIsReply } = useItems(protocol);
  const editLocked = useAppStore((s) => !!s.composers[protocol].jsonError);
  const variants = useAppStore((s) => s.composers[protocol].variants);
  const edited = useAppStore((s) => s.conversationMessageEdited);
  const branched = useAppStore((s) => s.conversationBranched);
  const shown = variants ? shownVariant(protocol, body, variants, reply?.runId) : -1;

  const render = (item: Item, i: number) => {
    const n = i + 1;
    const isLast = i === items.length - 1 && lastIsReply;
    const a: MessageActions = {
      busy,
      editLocked,
      onBranch: () => branched(protocol, branchBody(protocol, body, item, reply)),
      onRegenerate: isLast ? () => onRegenerate(item.kind === 'message' ? item.m.turn : undefined) : undefined,
      variants:
        isLast && variants && shown >= 0 ? (
          <Variants protocol={protocol} shown={shown} count={variants.items.length} />
        ) : undefined,
    };
    if (item.kind === 'reply')
      return reply && <ReplyItem key={`reply-${reply.runId}`} runId={reply.runId} n={n} a={a} />;
    const m = item.m;
    if (m.editTurn !== undefined)
      a.onEdit = (text, send) => {
        const later = items.length - n;
        const aside = later ? `; ${later} later message${later === 1 ? '' : 's'} set aside` : '';
        edited(protocol, editedMessage(protocol, body, m, text), `Edited message ${n}${aside}`);
        if (send) setTimeout(onSend, 0);
      };
    return <MessageItem key={`m-${m.turn}`} m={m} n={n} a={a} />;
  };

  return (
    <section className="card conversation-view" role="region" aria-label="Conversation">
      <div className="card-head">
        <span className="label">Conversation</span>
        <span className="muted small">
          {items.length} message{items.length === 1 ? '' : 's'}
        </span>
      </div>
      {items.length === 0 ? (
        <p className="muted small">No messages yet: type one below and Send.</p>
      ) : (
        <List items={items} render={render} />
      )}
    </section>
  );
});
