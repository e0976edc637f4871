/**
 * Postman (collection v2.0/v2.1 JSON) and Bruno (collection JSON export) into our collections
 * (docs/collections.md). Only requests to the gateway's send endpoints become requests; everything else is
 * listed as left out, with why, so the user knows what did not come over. Keys never come over: an auth
 * header is dropped and said so, since keys live only in the profile's vault.
 */
import { isObject } from '../is-object';
import type { ProtocolId } from '../protocols/types';

export interface ImportedRequest {
  name: string;
  /** Folder names from the collection's root down to this request. */
  folder: string[];
  protocol: ProtocolId;
  body: Record<string, unknown>;
  /** Extra headers that are not auth: kept so the request is the one the user had. */
  headers: Record<string, string>;
}

export interface ForeignImport {
  name: string;
  requests: ImportedRequest[];
  variables: Record<string, string>;
  leftOut: { name: string; reason: string }[];
  format: 'Postman' | 'Bruno';
}

const PATH_PROTOCOL: [RegExp, ProtocolId][] = [
  [/\/v1\/messages\/?(\?|$)/, 'messages'],
  [/\/v1\/chat\/completions\/?(\?|$)/, 'chat'],
  [/\/v1\/responses\/?(\?|$)/, 'responses'],
];
const AUTH_HEADERS = new Set(['x-api-key', 'authorization', 'api-key', 'proxy-authorization', 'cookie']);
/** Headers the app sets itself for every request. */
const OWN_HEADERS = new Set(['content-type', 'accept', 'content-length', 'host', 'anthropic-version']);

interface RawRequest {
  name: string;
  folder: string[];
  method: string;
  url: string;
  headers: { name: string; value: string }[];
  bodyText?: string;
}

function protocolOf(url: string): ProtocolId | undefined {
  return PATH_PROTOCOL.find(([re]) => re.test(url))?.[1];
}

function whyNot(raw: RawRequest): string | undefined {
  if (/\/v1\/models\/?(\?|$)/.test(raw.url)) return 'GET /v1/models: the model picker lists the models';
  if (/\/v1\/messages\/count_tokens/.test(raw.url)) return 'count_tokens: the token counter counts every request';
  if (!protocolOf(raw.url)) return `${raw.method} ${raw.url || '(no URL)'}: not one of the gateway's send endpoints`;
  if (raw.method.toUpperCase() !== 'POST') return `${raw.method} to a send endpoint: only POST sends`;
  return undefined;
}

function parseBody(raw: RawRequest): Record<string, unknown> | string {
  if (!raw.bodyText?.trim()) return 'it has no JSON body';
  try {
    const body: unknown = JSON.parse(raw.bodyText);
    return isObject(body) ? body : 'its body is not a JSON object';
  } catch {
    return 'its body is not valid JSON (a variable outside a string? write it inside quotes)';
  }
}

function convert(raws: RawRequest[], into: ForeignImport): ForeignImport {
  for (const raw of raws) {
    const label = [...raw.folder, raw.name].join(' / ');
    const why = whyNot(raw);
    if (why) {
      into.leftOut.push({ name: label, reason: why });
      continue;
    }
    const body = parseBody(raw);
    if (typeof body === 'string') {
      into.leftOut.push({ name: label, reason: `left out: ${body}` });
      continue;
    }
    const headers: Record<string, string> = {};
    for (const h of raw.headers) {
      const key = h.name.toLowerCase();
      if (AUTH_HEADERS.has(key))
        into.leftOut.push({ name: `${label}: header ${h.name}`, reason: 'keys stay in your profile' });
      else if (!OWN_HEADERS.has(key)) headers[key] = h.value;
    }
    const protocol = protocolOf(raw.url) as ProtocolId;
    into.requests.push({ name: raw.name || 'Untitled', folder: raw.folder, protocol, body, headers });
  }
  return into;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A Postman variable's value: numbers and booleans are allowed there too. */
const scalar = (v: unknown): string => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : str(v));

function postmanUrl(url: unknown): string {
  if (typeof url === 'string') return url;
  if (!isObject(url)) return '';
  if (typeof url.raw === 'string') return url.raw;
  const path = Array.isArray(url.path) ? url.path.map(str).join('/') : str(url.path);
  return `/${path}`;
}

function postmanItems(items: unknown, folder: string[], out: RawRequest[], leftOut: ForeignImport['leftOut']): void {
  if (!Array.isArray(items)) return;
  for (const item of items) {
    if (!isObject(item)) continue;
    const name = str(item.name);
    if (Array.isArray(item.item)) {
      postmanItems(item.item, [...folder, name || 'Folder'], out, leftOut);
      continue;
    }
    const req = item.request;
    if (typeof req === 'string') {
      out.push({ name, folder, method: 'GET', url: req, headers: [] });
      continue;
    }
    if (!isObject(req)) continue;
    const headers = (Array.isArray(req.header) ? req.header : [])
      .filter((h): h is Record<string, unknown> => isObject(h) && h.disabled !== true)
      .map((h) => ({ name: str(h.key), value: str(h.value) }));
    const body = isObject(req.body) ? req.body : undefined;
    if (body && body.mode !== undefined && body.mode !== 'raw') {
      leftOut.push({
        name: [...folder, name].join(' / '),
        reason: `left out: its body is ${str(body.mode)}, not raw JSON`,
      });
      continue;
    }
    out.push({
      name,
      folder,
      method: str(req.method) || 'GET',
      url: postmanUrl(req.url),
      headers,
      bodyText: str(body?.raw),
    });
  }
}

function fromPostman(doc: Record<string, unknown>): ForeignImport {
  const info = isObject(doc.info) ? doc.info : {};
  const into: ForeignImport = {
    name: str(info.name) || 'Postman collection',
    requests: [],
    variables: {},
    leftOut: [],
    format: 'Postman',
  };
  for (const v of Array.isArray(doc.variable) ? doc.variable : []) {
    if (isObject(v) && str(v.key) && v.disabled !== true) into.variables[str(v.key)] = scalar(v.value);
  }
  if (isObject(doc.auth)) into.leftOut.push({ name: 'Collection auth', reason: 'keys stay in your profile' });
  const raws: RawRequest[] = [];
  postmanItems(doc.item, [], raws, into.leftOut);
  return convert(raws, into);
}

function brunoItems(items: unknown, folder: string[], out: RawRequest[], leftOut: ForeignImport['leftOut']): void {
  if (!Array.isArray(items)) return;
  for (const item of items) {
    if (!isObject(item)) continue;
    const name = str(item.name);
    if (item.type === 'folder') {
      brunoItems(item.items, [...folder, name || 'Folder'], out, leftOut);
      continue;
    }
    const req = isObject(item.request) ? item.request : undefined;
    if (!req || (item.type !== 'http-request' && item.type !== 'http')) {
      leftOut.push({ name: [...folder, name].join(' / '), reason: `left out: a ${str(item.type) || 'non-HTTP'} item` });
      continue;
    }
    const headers = (Array.isArray(req.headers) ? req.headers : [])
      .filter((h): h is Record<string, unknown> => isObject(h) && h.enabled !== false)
      .map((h) => ({ name: str(h.name), value: str(h.value) }));
    const body = isObject(req.body) ? req.body : {};
    out.push({ name, folder, method: str(req.method) || 'GET', url: str(req.url), headers, bodyText: str(body.json) });
  }
}

function fromBruno(doc: Record<string, unknown>): ForeignImport {
  const into: ForeignImport = {
    name: str(doc.name) || 'Bruno collection',
    requests: [],
    variables: {},
    leftOut: [],
    format: 'Bruno',
  };
  const env = Array.isArray(doc.environments) ? doc.environments.find(isObject) : undefined;
  for (const v of isObject(env) && Array.isArray(env.variables) ? env.variables : []) {
    if (!isObject(v) || v.enabled === false || !str(v.name)) continue;
    if (v.secret === true)
      into.leftOut.push({ name: `Variable ${str(v.name)}`, reason: 'a secret variable: set it in Variables' });
    else into.variables[str(v.name)] = str(v.value);
  }
  const raws: RawRequest[] = [];
  brunoItems(doc.items, [], raws, into.leftOut);
  return convert(raws, into);
}

/** A Postman or Bruno collection's JSON, or a sentence saying why it is neither. */
export function importForeign(text: string): ForeignImport | { error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { error: 'This file is not JSON. Export the collection from Postman (v2.1) or Bruno (JSON) and try again.' };
  }
  if (!isObject(doc)) return { error: 'This file is not a collection: its JSON is not an object.' };
  const info = isObject(doc.info) ? doc.info : undefined;
  if ((info && /schema\.getpostman\.com|postman/i.test(str(info.schema))) || (info && Array.isArray(doc.item)))
    return fromPostman(doc);
  if (Array.isArray(doc.items) && (typeof doc.version === 'string' || typeof doc.name === 'string'))
    return fromBruno(doc);
  return { error: 'This file is neither a Postman collection (v2.x) nor a Bruno collection export.' };
}
