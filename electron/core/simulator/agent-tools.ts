/**
 * Which tool the Demo gateway calls, and with what, when a request offers tools. A real coding agent executes
 * these calls on the user's machine (docs/agents.md "The Demo gateway as a model"), so a call is harmless: a
 * read-only tool where one is offered, a shell tool only with `pwd`, `echo` or `ls`, arguments taken from the
 * prompt (the file it names) — never a tool that writes, deletes, spawns a sub-agent or reaches the network,
 * unless the request forces that very tool. After a tool result the model answers: a session ends in a few turns.
 */
import type { Conversation, ToolDef, Turn } from './conversation';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

const READ_ONLY = new Set([
  'read',
  'glob',
  'grep',
  'ls',
  'list_dir',
  'read_file',
  'list_files',
  'search_files',
  'view',
]);
const SHELL = new Set([
  'bash',
  'shell',
  'shell_command',
  'exec_command',
  'local_shell',
  'execute_command',
  'run_terminal_cmd',
]);
/** Tools whose call changes something, spawns an agent or reaches the network: called only when forced. */
const UNSAFE =
  /^(agent|task.*|write|edit|multiedit|notebookedit|apply_patch|write_to_file|web.*|cron.*|workflow|.*worktree|sendmessage|skill|schedulewakeup|reportfindings|spawn.*|mcp__.*)$/i;

const kind = (t: ToolDef) => {
  const n = t.name.toLowerCase();
  return READ_ONLY.has(n) ? 'read' : SHELL.has(n) ? 'shell' : UNSAFE.test(n) ? 'unsafe' : 'other';
};

/**
 * Whether `word` stands as a whole word in `text` (a tool named "LS" is not mentioned by "tells"). Values are
 * schema data ("c++", "a.b"), never patterns: a plain search with word edges checked by hand.
 */
export function mentionsWord(text: string, word: string): boolean {
  if (!word) return false;
  const t = text.toLowerCase();
  const w = word.toLowerCase();
  const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  for (let at = t.indexOf(w); at >= 0; at = t.indexOf(w, at + 1))
    if (!wordChar(t[at - 1]) && !wordChar(t[at + w.length])) return true;
  return false;
}

/** The file the prompt names (`notes.txt`, `src/app.ts`), if any. */
export function fileNamed(prompt: string): string | undefined {
  return /(?:^|[\s"'`(])((?:[\w.-]+\/)*[\w-]+\.[A-Za-z0-9]{2,6})(?=$|[\s"'`),.:;?!])/.exec(prompt)?.[1];
}

/** The agent's working dir, as Claude Code, Codex and Qwen Code state it in their context. */
function workingDir(conv: Conversation): string | undefined {
  const all = `${conv.system}\n${conv.turns.map((t) => t.text).join('\n')}`;
  return (
    /Primary working directory:\s*(\/\S+)/.exec(all)?.[1] ??
    /<cwd>(\/[^<]+)<\/cwd>/.exec(all)?.[1] ??
    /working in the directory:\s*(\/\S+)/.exec(all)?.[1] ??
    undefined
  );
}

/**
 * The last user turn the agent's user wrote: Claude Code sends system reminders as text blocks beside the
 * prompt and tool results; those are the agent's words, not the prompt.
 */
export function promptText(turn: Turn | undefined): string {
  if (!turn) return '';
  return turn.text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
}

/** A tool result came back after the model's last tool call: time to answer. */
export function answeredTool(turns: Turn[]): boolean {
  const lastCall = turns.findLastIndex((t) => t.role === 'assistant');
  return lastCall >= 0 && turns.slice(lastCall + 1).some((t) => t.role === 'tool');
}

/** The tool to call: the one forced, else the safest tool the prompt names, else a read-only one for a file. */
export function pickTool(conv: Conversation, prompt: string): ToolDef | undefined {
  const tc = conv.toolChoice;
  if (typeof tc === 'object') return conv.tools.find((t) => t.name === tc.name) ?? conv.tools[0];
  const rank = { read: 0, other: 1, shell: 2, unsafe: 3 } as const;
  const safest = (tools: ToolDef[]) =>
    [...tools].sort((a, b) => rank[kind(a)] - rank[kind(b)]).find((t) => kind(t) !== 'unsafe');
  const named = conv.tools.filter((t) => mentionsWord(prompt, t.name));
  const pick = safest(named);
  if (pick) return pick;
  // An agent's prompt rarely names a tool: a file it names is read with the read-only tool, or listed with the shell.
  if (fileNamed(prompt)) {
    const reader = conv.tools.find((t) => /^read(_file)?$/i.test(t.name)) ?? conv.tools.find((t) => kind(t) === 'read');
    const fallback = reader ?? conv.tools.find((t) => kind(t) === 'shell');
    if (fallback) return fallback;
  }
  if (tc === 'any') return safest(conv.tools) ?? conv.tools[0];
  return undefined;
}

/** A harmless command for a shell tool: list the file the prompt names, or print the working dir. */
function command(prompt: string): string[] {
  const file = fileNamed(prompt);
  return file ? ['ls', file] : ['pwd'];
}

/** Fills the fields an agent's tool reads (paths, patterns, commands) from the prompt; the rest stays as given. */
export function agentArgs(tool: ToolDef, args: Json, conv: Conversation, prompt: string): Json {
  const props = isObj(tool.schema.properties) ? tool.schema.properties : {};
  const file = fileNamed(prompt);
  const cwd = workingDir(conv);
  const out: Json = { ...args };
  const set = (key: string, value: unknown) => {
    if (key in props) out[key] = value;
  };
  if (kind(tool) === 'shell') {
    const cmd = command(prompt);
    for (const key of ['command', 'cmd']) {
      const p = props[key];
      if (!isObj(p)) continue;
      out[key] = p.type === 'array' ? cmd : cmd.join(' ');
    }
    for (const key of ['workdir', 'cwd']) if (key in out && cwd) out[key] = cwd;
    return out;
  }
  if (file) {
    const abs = cwd && !file.startsWith('/') ? `${cwd.replace(/\/$/, '')}/${file}` : file;
    set('file_path', abs);
    const dirTool = /^(glob|grep|ls|list_dir|list_files|search_files)$/i.test(tool.name);
    set('path', dirTool ? (cwd ?? '.') : abs);
    set('pattern', file);
  }
  return out;
}
