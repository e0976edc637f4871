/**
 * One collection run (docs/collections.md): a folder's requests sent on one profile, in the folder's order,
 * `concurrency` at a time, each an ordinary run of the core's RunManager (a ledger, events, a History entry),
 * with its variables resolved first and its expectations checked against its own evidence after.
 */
import { randomUUID } from 'node:crypto';
import type {
  CollectionRunProgress,
  CollectionRunRow,
  Preset,
  RecordedRun,
  RunStartInput,
} from '../../shared/contract';
import { checkExpectation, requestPassed, type RunEvidence } from '../../shared/collections/expectations';
import { resolveValue, unknownVariables, type Variables } from '../../shared/collections/variables';
import type { z } from 'zod';

/** What a run needs from the core: start one run, and stop it. */
export interface CollectionRunDeps {
  start(input: z.output<typeof RunStartInput>): { runId: string; done: Promise<RecordedRun> };
  cancel(runId: string): void;
  /** The variables a request in this folder sees on the run's profile. */
  scope(folder: readonly string[]): Variables;
  onProgress(p: CollectionRunProgress): void;
}

function evidenceOf(run: RecordedRun): RunEvidence {
  const blocks = run.result.transcript.blocks;
  return {
    verdict: run.result.verdict,
    text: blocks.map((b) => (b.kind === 'text' ? b.text : '')).join(''),
    toolCalls: blocks.flatMap((b) => (b.kind === 'tool_call' ? [b.name] : [])),
    inputTokens: run.result.metrics.usage.inputTotal,
    outputTokens: run.result.metrics.usage.output,
  };
}

export class CollectionRun {
  readonly id = `coll_${randomUUID()}`;
  readonly done: Promise<CollectionRunProgress>;
  private state: CollectionRunProgress['state'] = 'running';
  private readonly rows: CollectionRunRow[];
  private readonly live = new Set<string>();
  private next = 0;

  constructor(
    private readonly requests: readonly Preset[],
    private readonly meta: { folder: string[]; profileId: string; profileName: string; concurrency: number },
    private readonly deps: CollectionRunDeps,
    private readonly startedAt = new Date().toISOString(),
  ) {
    this.rows = requests.map((p) => ({
      presetId: p.id,
      name: p.name,
      folder: p.folder ?? [],
      protocol: p.protocol,
      model: p.model,
      state: 'waiting',
      checks: [],
    }));
    this.done = this.run();
  }

  progress(): CollectionRunProgress {
    return {
      collectionRunId: this.id,
      folder: this.meta.folder,
      profileName: this.meta.profileName,
      startedAt: this.startedAt,
      state: this.state,
      rows: this.rows.map((r) => ({ ...r })),
    };
  }

  stop(): boolean {
    if (this.state !== 'running') return false;
    this.state = 'stopped';
    for (const runId of this.live) this.deps.cancel(runId);
    return true;
  }

  private async run(): Promise<CollectionRunProgress> {
    const workers = Math.min(this.meta.concurrency, this.requests.length);
    await Promise.all(Array.from({ length: workers }, () => this.worker()));
    if (this.state === 'running') this.state = 'finished';
    for (const row of this.rows) {
      if (row.state === 'waiting') Object.assign(row, { state: 'skipped', reason: 'Not sent: the run was stopped.' });
    }
    const final = this.progress();
    this.deps.onProgress(final);
    return final;
  }

  private async worker(): Promise<void> {
    while (this.state === 'running' && this.next < this.requests.length) {
      const i = this.next++;
      await this.one(i);
      this.deps.onProgress(this.progress());
    }
  }

  private async one(i: number): Promise<void> {
    const preset = this.requests[i];
    const row = this.rows[i];
    const vars = this.deps.scope(row.folder);
    const unknown = unknownVariables(preset.body, vars);
    if (unknown.length) {
      const names = unknown.map((n) => `{{${n}}}`).join(', ');
      Object.assign(row, { state: 'failed', reason: `Not sent: no value for ${names} (set it in Variables).` });
      return;
    }
    const body = resolveValue(preset.body, vars);
    row.state = 'running';
    if (typeof body.model === 'string') row.model = body.model;
    const started = this.deps.start({
      profileId: this.meta.profileId,
      protocol: preset.protocol,
      body,
      warnings: [],
      origin: 'collection',
    });
    row.runId = started.runId;
    this.live.add(started.runId);
    this.deps.onProgress(this.progress());
    const run = await started.done.finally(() => this.live.delete(started.runId));
    const m = run.result.metrics;
    const checks = checkExpectation(preset.expect, evidenceOf(run));
    const passed = requestPassed(checks, run.result.verdict);
    Object.assign(row, {
      state: passed ? 'passed' : 'failed',
      verdict: run.result.verdict,
      status: m.status,
      ttftMs: m.ttftMs,
      totalMs: m.totalMs,
      inputTokens: m.usage.inputTotal,
      outputTokens: m.usage.output,
      checks,
      reason: passed ? undefined : checks.length ? undefined : run.result.reason,
    });
  }
}
