/**
 * The report a user sends to their gateway's operator: the capability matrix and the agent matrix of one
 * profile, with the evidence, as Markdown and as a self-contained HTML page (inline style, no script, no
 * external resource). It is built from stored results only, which never hold the key.
 */
import { CAPABILITY_INFO, type CapabilityResult } from '../capabilities';
import { PROTOCOL_INFO } from '../protocols/types';
import { AGENT_IDS, AGENTS, agentResultKey, type AgentId, type AgentResult, type AgentStep } from './types';
import { LEVEL_WORDS } from './verdict';

export interface ReportInput {
  profileName: string;
  baseUrl: string;
  generatedAt: string;
  capabilities: readonly CapabilityResult[];
  agents: readonly AgentResult[];
}

interface Table {
  head: string[];
  rows: string[][];
}

const uniq = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];

function agentMatrix(results: readonly AgentResult[]): Table {
  const models = uniq(results.map((r) => r.model)).sort();
  const byKey = new Map(results.map((r) => [agentResultKey(r), r]));
  const cell = (agent: AgentId, model: string) => {
    const r = byKey.get(agentResultKey({ agent, model }));
    return r ? `${LEVEL_WORDS[r.level]} (${r.at.slice(0, 16).replace('T', ' ')} UTC)` : '—';
  };
  return {
    head: ['Model', ...AGENT_IDS.map((a) => AGENTS[a].label)],
    rows: models.map((m) => [m, ...AGENT_IDS.map((a) => cell(a, m))]),
  };
}

function capabilityMatrix(results: readonly CapabilityResult[]): Table {
  const rows = [...results]
    .sort(
      (a, b) =>
        a.model.localeCompare(b.model) ||
        a.protocol.localeCompare(b.protocol) ||
        a.capability.localeCompare(b.capability),
    )
    .map((r) => [
      r.model,
      PROTOCOL_INFO[r.protocol].label,
      CAPABILITY_INFO[r.capability].label,
      r.outcome,
      r.message,
      r.at.slice(0, 16).replace('T', ' '),
    ]);
  return { head: ['Model', 'Protocol', 'Capability', 'Outcome', 'Evidence', 'Measured (UTC)'], rows };
}

const stepWords = (s: AgentStep) => (s.consequence ? `${s.evidence} ${s.consequence}` : s.evidence);
const httpOf = (s: AgentStep) => (s.status !== undefined ? ` (HTTP ${s.status})` : '');

function sortedAgents(results: readonly AgentResult[]): AgentResult[] {
  return [...results].sort((a, b) => a.model.localeCompare(b.model) || a.agent.localeCompare(b.agent));
}

// ---- Markdown ----

/**
 * Any text of the report as literal Markdown: model ids, messages and evidence are the gateway's words, and a
 * model id `<img src=x onerror=…>` or `[Re-auth here](https://…)` must not become HTML or a link in whatever
 * viewer opens the file. HTML's three specials become references (every viewer decodes those to text), the
 * punctuation of inline Markdown is backslash-escaped (brackets, so no link or image can open), autolinks (`https://`, `www.`, `a@b`) are broken, and
 * a line break becomes a space so no text starts a block.
 */
const md = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]#|~@]/g, '\\$&')
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/\r?\n|\r/g, ' ');

function mdTable(t: Table): string {
  if (t.rows.length === 0) return '_Nothing measured yet._';
  return [
    `| ${t.head.join(' | ')} |`,
    `| ${t.head.map(() => '---').join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.map(md).join(' | ')} |`),
  ].join('\n');
}

export function reportMarkdown(input: ReportInput): string {
  const out = [
    `# Gateway report: ${md(input.profileName)}`,
    '',
    `Gateway: ${md(input.baseUrl)}  `,
    `Generated: ${md(input.generatedAt)}`,
    '',
    '## Agent readiness',
    '',
    mdTable(agentMatrix(input.agents)),
    '',
  ];
  for (const r of sortedAgents(input.agents)) {
    out.push(`### ${AGENTS[r.agent].label} × ${md(r.model)}`, '', `**${md(r.verdict)}**`, '');
    const small = r.smallModel ? `, small fast model ${md(r.smallModel)}` : '';
    out.push(`Measured ${md(r.at)}${small}${r.replayed ? `, replaying ${md(r.replayed)}` : ''}.`, '');
    for (const s of r.steps) {
      const status = s.status !== undefined ? ` (HTTP ${s.status})` : '';
      out.push(`- **${s.outcome}** ${md(s.title)}${status}: ${md(stepWords(s))}`);
    }
    out.push('');
  }
  out.push('## Capabilities', '', mdTable(capabilityMatrix(input.capabilities)), '');
  return out.join('\n');
}

// ---- HTML ----

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function htmlTable(t: Table): string {
  if (t.rows.length === 0) return '<p><em>Nothing measured yet.</em></p>';
  const head = `<tr>${t.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const rows = t.rows
    .map((r) => `<tr>${r.map((c) => `<td class="${esc(c.split(' ')[0])}">${esc(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table>\n${head}\n${rows}\n</table>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1b1f}
table{border-collapse:collapse;margin:1rem 0}
th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f2f2f5}
.ready,.proven,.pass{background:#e5f6e8}.degraded,.warn,.inconclusive{background:#fff4d6}
.not,.fail,.error,.not-supported{background:#fde4e4}li{margin:.2rem 0}`;

export function reportHtml(input: ReportInput): string {
  const details = sortedAgents(input.agents)
    .map((r) => {
      const steps = r.steps
        .map(
          (s) =>
            `<li class="${s.outcome}"><strong>${s.outcome}</strong> ` +
            `${esc(s.title)}${httpOf(s)}: ${esc(stepWords(s))}</li>`,
        )
        .join('\n');
      const level = r.level === 'not-ready' ? 'not' : r.level;
      return [
        `<h3>${esc(AGENTS[r.agent].label)} × ${esc(r.model)}</h3>`,
        `<p class="${level}"><strong>${esc(r.verdict)}</strong></p>`,
        `<p>Measured ${esc(r.at)}</p>`,
        `<ul>\n${steps}\n</ul>`,
      ].join('\n');
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Gateway report: ${esc(input.profileName)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>${STYLE}</style></head>
<body>
<h1>Gateway report: ${esc(input.profileName)}</h1>
<p>Gateway: ${esc(input.baseUrl)}<br>Generated: ${esc(input.generatedAt)}</p>
<h2>Agent readiness</h2>
${htmlTable(agentMatrix(input.agents))}
${details}
<h2>Capabilities</h2>
${htmlTable(capabilityMatrix(input.capabilities))}
</body></html>
`;
}
