/**
 * Captures what the real coding-agent CLIs send, as the fixtures the Agents check replays
 * (electron/core/agents/captures, docs/agents.md "Captures"). Each CLI runs in print mode, with a temp HOME,
 * telemetry off, in an empty temp dir holding one file, against the Demo gateway through a logging proxy.
 *
 *   npm i --prefix /tmp/agent-clis @anthropic-ai/claude-code@<v> @openai/codex@<v> @qwen-code/qwen-code@<v>
 *   (versions: captures/versions.json)
 *   AGENT_CLIS=/tmp/agent-clis npx tsx scripts/capture-agent.ts [claude-code|codex|qwen-code ...]
 *
 * A model id the CLI knows (a real catalogue id) is captured by letting the proxy route it to a Demo model;
 * the fixture keeps the id the CLI sent, replaced by a placeholder, since the replay substitutes its own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureRun, captureFile, type AgentRun } from './capture-kit';
import versions from '../electron/core/agents/captures/versions.json' with { type: 'json' };

const OUT = join(import.meta.dirname, '../electron/core/agents/captures');
const CLIS = process.env.AGENT_CLIS ?? '/tmp/agent-clis';

/** The one prompt of a capture: it names a file in the empty working dir and a read-only tool. */
export const CAPTURE_PROMPT = 'Read the file notes.txt and tell me in one sentence what it says.';

const RUNS: AgentRun[] = [
  { agent: 'claude-code', version: versions['claude-code'], modelIdKnown: false, model: 'claude-sim-sonnet' },
  // A real catalogue id: the proxy routes it to claude-sim-sonnet.
  { agent: 'claude-code', version: versions['claude-code'], modelIdKnown: true, model: 'claude-sonnet-4-5' },
  { agent: 'codex', version: versions.codex, modelIdKnown: false, model: 'gpt-sim-o3' },
  { agent: 'codex', version: versions.codex, modelIdKnown: true, model: 'gpt-5.5' },
  // The chat-completions agent: Qwen Code's OpenAI provider; a catalogue id of its own is routed like the others.
  { agent: 'qwen-code', version: versions['qwen-code'], modelIdKnown: false, model: 'gpt-sim-4o' },
  { agent: 'qwen-code', version: versions['qwen-code'], modelIdKnown: true, model: 'qwen3-coder-plus' },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  mkdirSync(OUT, { recursive: true });
  for (const run of RUNS.filter((r) => only.length === 0 || only.includes(r.agent))) {
    const capture = await captureRun(run, { clis: CLIS, prompt: CAPTURE_PROMPT });
    const file = join(OUT, captureFile(run.agent, run.modelIdKnown));
    writeFileSync(file, `${JSON.stringify(capture, null, 2)}\n`);
    console.log(
      `${file}: ${capture.requests.length} requests, exit ${capture.exitCode}, tools run: ${capture.toolsRun.join(', ') || 'none'}`,
    );
  }
}

await main();
