import { useEffect, useMemo, useRef, useState } from 'react';
import type { ProtocolId, Transcript } from '../../../../shared/protocols/types';
import { pendingToolCalls } from '../../../../shared/protocols/compose';
import { useAppStore } from '../../store';
import { withToolResults } from '../../store/composer-slice';
import { defaultModel } from '../model-picker/default-model';
import { bodyToSend, joinsReply } from './body-to-send';
import type { Body } from './body-fields';
import { answersConversation, conversationProblem } from './conversation-rules';
import { useVariables } from '../collections/use-variables';
import { useOpenReply, useOwnRun } from './use-own-run';
import { keepTurns, turnCount, turnsFrom, type ReplyVariant } from '../conversation/conversation-edits';

/** Reads the drafts the core kept, once per window: the first composer shown asks (the store ignores the rest). */
function useDrafts() {
  const draftsRequested = useAppStore((s) => s.draftsRequested);
  useEffect(() => void draftsRequested(), [draftsRequested]);
  return useAppStore((s) => s.draftsState);
}

/** Picks the Demo gateway's model for a tab that names none, once its models are listed. */
function useDefaultModel(protocol: ProtocolId, model: string) {
  const profile = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.activeId));
  const list = useAppStore((s) => (s.profiles ? s.models[s.profiles.activeId] : undefined));
  const modelDefaulted = useAppStore((s) => s.composerModelDefaulted);
  const draftsState = useDrafts();
  const chosen = defaultModel(profile, list);
  // Only after the kept drafts are read: a draft names its own model. (At start the store has done it already:
  // see windowOpened.)
  useEffect(() => {
    if (!model && chosen && draftsState === 'ready') modelDefaulted(protocol, chosen);
  }, [model, chosen, draftsState, modelDefaulted, protocol]);
}

/**
 * Everything a composer tab does with its runs: Send, Stop, Continue, answering tool calls, and why Send is
 * held. Components call these; they reach the core only through the store's actions.
 */
export function useComposerRun(protocol: ProtocolId, toolsError: string | undefined, fieldError?: string) {
  const body = useAppStore((s) => s.composers[protocol].body);
  const draft = useAppStore((s) => s.composers[protocol].draft);
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const warnings = useAppStore((s) => s.composers[protocol].warnings);
  const continuedRunId = useAppStore((s) => s.composers[protocol].continuedRunId);
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const hostStale = useAppStore((s) => s.hostStale);
  const edited = useAppStore((s) => s.composerBodyEdited);
  const typeDraft = useAppStore((s) => s.composerDraftTyped);
  const runStarted = useAppStore((s) => s.composerRunStarted);
  const turnContinued = useAppStore((s) => s.composerTurnContinued);
  const chainedById = useAppStore((s) => s.composerChainedById);
  const toolResultsSent = useAppStore((s) => s.composerToolResultsSent);
  const runStartRequested = useAppStore((s) => s.runStartRequested);
  const runCancelRequested = useAppStore((s) => s.runCancelRequested);
  const replyJoined = useAppStore((s) => s.composerReplyJoined);
  const regenerated = useAppStore((s) => s.conversationRegenerated);
  const own = useOwnRun(protocol);
  const reply = useOpenReply(protocol);
  const [sendError, setSendError] = useState<string>();
  // A ref, not only state: a second click can arrive before React re-renders the disabled button.
  const startPending = useRef(false);
  const [starting, setStarting] = useState(false);
  const model = typeof body.model === 'string' ? body.model : '';
  useDefaultModel(protocol, model);

  const toSend = useMemo(() => bodyToSend(protocol, body, draft, reply), [protocol, body, draft, reply]);
  const variables = useVariables(protocol, toSend);
  // The reply answers the turns it was sent with (variables put in); once those were removed or changed, its
  // tool calls go with them.
  const answers =
    own.ownRunId !== undefined &&
    answersConversation(protocol, own.sent, variables.used.length ? variables.resolve(body) : body);
  const transcript = answers ? own.transcript : undefined;
  const pending = useMemo(() => (transcript ? pendingToolCalls(transcript) : []), [transcript]);
  const canContinue =
    !!transcript && own.verdict !== undefined && continuedRunId !== own.ownRunId && transcript.blocks.length > 0;
  const lastStored = own.sent?.store !== false;
  // Half-typed tools would go out as the last tools that parsed, which is not what the box shows.
  const blockedReason = hostStale
    ? 'Send is off: this window is from an earlier start of the app (see the message at the top).'
    : jsonError
      ? 'Fix the JSON before sending.'
      : toolsError
        ? 'Fix the tools JSON before sending.'
        : fieldError
          ? fieldError
          : !profileId
            ? 'No profile.'
            : !model
              ? 'Pick a model first.'
              : (variables.heldBecause ?? conversationProblem(protocol, toSend));

  /** Starts a run of `next`; its id once the core took it, undefined (and the error shown) when it did not. */
  const start = async (next: Body): Promise<string | undefined> => {
    startPending.current = true;
    setStarting(true);
    setSendError(undefined);
    // The request Send was pressed on: the user may switch to another before the core answers.
    const requestId = useAppStore.getState().requests[protocol].activeId;
    try {
      const body = variables.resolve(next);
      const r = await runStartRequested({ profileId: profileId!, protocol, body, warnings, origin: 'composer' });
      if (r.error) setSendError(r.error.message);
      else if (r.runId) runStarted(protocol, r.runId, requestId);
      // What follows a start (Regenerate's replies, tool results joining the body) acts on the request on view.
      if (useAppStore.getState().requests[protocol].activeId !== requestId) return undefined;
      return r.runId;
    } catch (err) {
      setSendError(err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      startPending.current = false;
      setStarting(false);
    }
  };
  const busy = () => !!blockedReason || own.running || startPending.current;

  const send = async () => {
    if (busy()) return;
    if (reply && joinsReply(protocol, body, draft, reply)) replyJoined(protocol, reply.runId, toSend);
    else if (toSend !== body) {
      edited(protocol, toSend);
      typeDraft(protocol, '');
    }
    await start(toSend);
  };

  /**
   * Regenerate: the turns before the last reply go out again as a new run, and every reply so far stays one
   * "Previous" away. `from` is where the reply starts when it is in the body (else it is the open reply).
   */
  const regenerate = async (from?: number) => {
    if (busy()) return;
    const c = useAppStore.getState().composers[protocol];
    const at = from ?? (reply ? reply.at : turnCount(protocol, c.body));
    const prefix = keepTurns(protocol, c.body, at);
    const first: ReplyVariant | undefined =
      from !== undefined ? { turns: turnsFrom(protocol, c.body, from) } : reply ? { runId: reply.runId } : undefined;
    const before = c.variants?.at === at ? c.variants.items : first ? [first] : [];
    const runId = await start(prefix);
    if (runId) regenerated(protocol, prefix, { at, items: [...before, { runId }] });
  };

  /** Answers the pending tool calls (by position), with what is in the Message box as the user's next words. */
  const sendToolResults = async (outputs: string[]) => {
    const answered = own.ownRunId;
    if (!transcript || !answered || busy()) return false;
    const results = pending.map((c, i) => ({ id: c.id, name: c.name, output: outputs[i] ?? '' }));
    const composer = useAppStore.getState().composers[protocol];
    const next = bodyToSend(
      protocol,
      withToolResults(protocol, composer, answered, transcript, results),
      composer.draft,
    );
    const problem = conversationProblem(protocol, next);
    if (problem) {
      setSendError(problem);
      return false;
    }
    if (!(await start(next))) return false;
    toolResultsSent(protocol, answered, next);
    return true;
  };

  const focusMessage = () =>
    setTimeout(
      () =>
        document
          .querySelector<HTMLTextAreaElement>(`[data-composer="${protocol}"] textarea[aria-label="Message"]`)
          ?.focus(),
      0,
    );
  const continueTurn = (t: Transcript) => {
    if (!own.ownRunId) return;
    turnContinued(protocol, own.ownRunId, t);
    focusMessage();
  };
  const continueById = (id: string) => {
    if (!own.ownRunId) return;
    chainedById(protocol, own.ownRunId, id);
    focusMessage();
  };
  const stop = () => own.activeRunId && void runCancelRequested(own.activeRunId);

  return {
    ...own,
    transcript,
    pending,
    canContinue,
    lastStored,
    blockedReason,
    sendError,
    starting,
    send,
    regenerate,
    sendToolResults,
    continueTurn,
    continueById,
    stop,
  };
}
