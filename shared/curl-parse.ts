/**
 * Import from curl: a pasted command for any of the five endpoints becomes a tab and a body. The key in the
 * command is recognised and never returned: the user is told it was not stored. Pure.
 */
import type { CurlImport } from './contract/library';
import type { ProtocolId } from './protocols/types';
import { SECRET_HEADER } from './request-headers';

const ROUTES: [string, ProtocolId | undefined][] = [
  ['/v1/messages/count_tokens', undefined],
  ['/v1/messages', 'messages'],
  ['/v1/chat/completions', 'chat'],
  ['/v1/responses', 'responses'],
  ['/v1/models', undefined],
];

/** Splits a shell command line the way a POSIX shell would for the quoting curl commands use. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let has = false;
  let i = 0;
  const s = text.replace(/\\\r?\n/g, ' ');
  while (i < s.length) {
    const c = s[i];
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated single quote');
      cur += s.slice(i + 1, end);
      has = true;
      i = end + 1;
    } else if (c === '$' && s[i + 1] === "'") {
      i += 2;
      while (i < s.length && s[i] !== "'") {
        if (s[i] === '\\' && i + 1 < s.length) {
          const n = s[i + 1];
          cur += n === 'n' ? '\n' : n === 't' ? '\t' : n;
          i += 2;
        } else cur += s[i++];
      }
      if (i >= s.length) throw new Error("unterminated $'…' quote");
      i++;
      has = true;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < s.length && '"\\$`\n'.includes(s[i + 1])) {
          cur += s[i + 1];
          i += 2;
        } else cur += s[i++];
      }
      if (i >= s.length) throw new Error('unterminated double quote');
      i++;
      has = true;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[i + 1];
      has = true;
      i += 2;
    } else if (/\s/.test(c)) {
      if (has) words.push(cur);
      cur = '';
      has = false;
      i++;
    } else {
      cur += c;
      has = true;
      i++;
    }
  }
  if (has) words.push(cur);
  return words;
}

export function parseCurl(text: string): CurlImport | { error: string } {
  let words: string[];
  try {
    words = shellWords(text.trim());
  } catch (err) {
    return { error: `The command does not parse: ${(err as Error).message}.` };
  }
  if (words[0] !== 'curl') return { error: 'That is not a curl command (it should start with "curl").' };
  const notes: string[] = [];
  let url: string | undefined;
  let method: string | undefined;
  let data: string | undefined;
  let keyFound = false;
  const takesValue = new Set([
    '-X',
    '--request',
    '-H',
    '--header',
    '-d',
    '--data',
    '--data-raw',
    '--data-binary',
    '--data-ascii',
    '--json',
    '--url',
    '-u',
    '--user',
    '-o',
    '--output',
    '-m',
    '--max-time',
    '--connect-timeout',
    '-A',
    '--user-agent',
    '-x',
    '--proxy',
  ]);
  for (let i = 1; i < words.length; i++) {
    let w = words[i];
    let value: string | undefined;
    const eq = w.startsWith('--') ? w.indexOf('=') : -1;
    if (eq > 0) {
      value = w.slice(eq + 1);
      w = w.slice(0, eq);
    } else if (takesValue.has(w)) value = words[++i];
    else if (/^-[HdX]./.test(w)) {
      value = w.slice(2);
      w = w.slice(0, 2);
    }
    switch (w) {
      case '-X':
      case '--request':
        method = value?.toUpperCase();
        break;
      case '-H':
      case '--header': {
        const name = value?.split(':')[0]?.trim() ?? '';
        if (SECRET_HEADER.test(name)) keyFound = true;
        break;
      }
      case '-d':
      case '--data':
      case '--data-raw':
      case '--data-binary':
      case '--data-ascii':
      case '--json':
        if (value?.startsWith('@'))
          return { error: `The body is read from a file (${value}); paste the JSON inline instead.` };
        data = value;
        break;
      case '--url':
        url = value;
        break;
      case '-u':
      case '--user':
        keyFound = true;
        break;
      default:
        if (!w.startsWith('-') && !url) url = w;
    }
  }
  if (keyFound) notes.push('The key in the command was not stored: keys live only in a connection profile.');
  if (!url) return { error: 'The command has no URL.' };
  let pathname: string;
  try {
    pathname = new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return { error: `"${url}" is not a URL.` };
  }
  const route = ROUTES.find(([p]) => pathname.endsWith(p));
  if (!route)
    return {
      error: `${pathname} is none of the five gateway endpoints (/v1/messages, /v1/chat/completions, /v1/responses, /v1/models, /v1/messages/count_tokens).`,
    };
  const resolvedMethod = method ?? (data !== undefined ? 'POST' : 'GET');
  let body: Record<string, unknown> | undefined;
  if (data !== undefined) {
    try {
      const parsed: unknown = JSON.parse(data);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        return { error: 'The body is JSON but not an object.' };
      body = parsed as Record<string, unknown>;
    } catch (err) {
      return { error: `The body is not valid JSON: ${(err as Error).message}.` };
    }
  }
  if (route[0] === '/v1/messages/count_tokens')
    notes.push('This is a count_tokens request: it opens in the Messages tab (add max_tokens before sending).');
  if (route[0] === '/v1/models') notes.push('This lists models: the model picker does that for the active profile.');
  return {
    protocol: route[1] ?? (route[0] === '/v1/messages/count_tokens' ? 'messages' : undefined),
    path: route[0],
    method: resolvedMethod,
    body,
    notes,
  };
}
