import { useState } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { lazyPart } from '../../lib/lazy-part';
import { SavePreset } from '../library/SavePreset';
import { InputTokens } from '../token-counter/InputTokens';
import { PROTOCOL_PARAMS } from './protocol-params';
import type { useComposerRun } from './use-composer-run';

type Run = ReturnType<typeof useComposerRun>;

/** Opened by "Code": a chunk of its own, fetched when first opened. */
const CodeDialog = lazyPart(
  () => import('../export/CodeDialog').then((m) => m.CodeDialog),
  'the Code dialog',
  (_, failure) => failure ?? null,
);

/** The bar under the form: count, save, export, Continue, Stop and Send. */
export function ComposerActions({ protocol, run }: { protocol: ProtocolId; run: Run }) {
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const draftsError = useAppStore((s) => s.draftsError);
  const [codeOpen, setCodeOpen] = useState(false);
  const { transcript, canContinue, pending } = run;
  const offerContinue = canContinue && transcript && pending.length === 0;
  return (
    <div className="composer-actions">
      <InputTokens protocol={protocol} />
      <div className="spacer" />
      {draftsError && (
        <span className="field-error small" role="alert">
          Draft not saved: {draftsError}
        </span>
      )}
      <SavePreset protocol={protocol} />
      <button type="button" onClick={() => setCodeOpen(true)}>
        Code…
      </button>
      {codeOpen && <CodeDialog protocol={protocol} onClose={() => setCodeOpen(false)} />}
      {offerContinue && (
        <button
          type="button"
          disabled={!!jsonError}
          onClick={() => run.continueTurn(transcript)}
          title="Append the assistant turn, then write the next user turn"
        >
          Continue
        </button>
      )}
      {PROTOCOL_PARAMS[protocol].continueById && offerContinue && transcript.id && (
        <button
          type="button"
          disabled={!!jsonError || !run.lastStored}
          onClick={() => run.continueById(transcript.id!)}
          title={
            !run.lastStored
              ? 'That request had store off: the gateway kept no response to continue from'
              : `Send only the next turn, with previous_response_id ${transcript.id}: the gateway holds the rest`
          }
        >
          Continue by id
        </button>
      )}
      {run.sendError && <span className="field-error">{run.sendError}</span>}
      {run.blockedReason && (
        <span className="muted small" aria-label="Why Send is off">
          {run.blockedReason}
        </span>
      )}
      <button type="button" disabled={!run.running || !run.activeRunId} onClick={run.stop}>
        Stop
      </button>
      <button
        type="button"
        className="primary"
        disabled={!!run.blockedReason || run.running || run.starting}
        onClick={() => void run.send()}
        title="Ctrl/Cmd+Enter"
      >
        Send
      </button>
    </div>
  );
}

/** "New conversation", "Reset to sample", and the Undo of the last change that replaced the conversation. */
export function ConversationControls({ protocol, running }: { protocol: ProtocolId; running: boolean }) {
  const undo = useAppStore((s) => s.composers[protocol].undo);
  const cleared = useAppStore((s) => s.composerConversationCleared);
  const sampleRestored = useAppStore((s) => s.composerSampleRestored);
  const undoRequested = useAppStore((s) => s.composerUndoRequested);
  const undoDismissed = useAppStore((s) => s.composerUndoDismissed);
  return (
    <div className="row wrap conversation-controls">
      <button
        type="button"
        className="ghost small"
        disabled={running}
        onClick={() => cleared(protocol)}
        title="Empty the conversation and the output (undoable)"
      >
        New conversation
      </button>
      <button
        type="button"
        className="ghost small"
        disabled={running}
        onClick={() => sampleRestored(protocol)}
        title="Put the sample request back (undoable)"
      >
        Reset to sample
      </button>
      {undo && (
        <p className="composer-note" role="status" aria-label="Last change">
          <span>{undo.label}.</span>
          <button type="button" className="small" onClick={() => undoRequested(protocol)}>
            Undo
          </button>
          <button
            type="button"
            className="ghost small"
            aria-label="Dismiss last change"
            onClick={() => undoDismissed(protocol)}
          >
            ×
          </button>
        </p>
      )}
    </div>
  );
}
