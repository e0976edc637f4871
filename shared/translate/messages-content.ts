/** Messages content blocks (docs/protocols.md §1.3): text, image and document blocks, read and written. */
import { base64Text, textBase64 } from '../documents';
import {
  asObj,
  asStr,
  type Ctx,
  type Json,
  notTranslatedBlock,
  parseDataUrl,
  type Part,
  present,
  strF,
  type Turn,
  typeOf,
  readParts,
} from './ir';

export function readMessagesText(o: Json, path: string, ctx: Ctx): Part {
  ctx.keys(o, path, ['type', 'text', 'cache_control', 'citations']);
  if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
  if (present(o.citations)) ctx.lose(`${path}.citations`, `${ctx.target} has no citations on request text.`);
  return { type: 'text', text: asStr(o.text, `${path}.text`), path };
}

/** text / image / document blocks (user turns and tool results). */
export function readMessagesPart(o: Json, path: string, type: string, ctx: Ctx): Part | undefined {
  if (type === 'text') return readMessagesText(o, path, ctx);
  if (type === 'image') return readMessagesImage(o, path, ctx);
  if (type === 'document') return readMessagesDocument(o, path, ctx);
  if (type === 'thinking' || type === 'redacted_thinking') {
    ctx.lose(path, `${ctx.target} has no thinking blocks and their signatures cannot be recreated.`);
    return undefined;
  }
  notTranslatedBlock(path, type, ctx);
  return undefined;
}

/** An image's or a document's source: base64 becomes a data URL, a url stays itself; any other kind is the caller's. */
function sourceUrl(src: Json, sp: string, kind: string, ctx: Ctx): string | undefined {
  if (kind === 'base64') {
    ctx.keys(src, sp, ['type', 'media_type', 'data']);
    return `data:${asStr(src.media_type, `${sp}.media_type`)};base64,${asStr(src.data, `${sp}.data`)}`;
  }
  if (kind !== 'url') return undefined;
  ctx.keys(src, sp, ['type', 'url']);
  return asStr(src.url, `${sp}.url`);
}

const MESSAGES_STORE = 'the Messages file store';

function readMessagesImage(o: Json, path: string, ctx: Ctx): Part | undefined {
  ctx.keys(o, path, ['type', 'source', 'cache_control']);
  if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
  const sp = `${path}.source`;
  const src = asObj(o.source, sp);
  const kind = typeOf(src, sp);
  const url = sourceUrl(src, sp, kind, ctx);
  if (url !== undefined) return { type: 'image', url, path };
  if (kind === 'file') return ctx.noFileId(path, 'the image inline', MESSAGES_STORE);
  notTranslatedBlock(path, `image source ${kind}`, ctx);
  return undefined;
}

function readMessagesDocument(o: Json, path: string, ctx: Ctx): Part | undefined {
  ctx.keys(o, path, ['type', 'source', 'title', 'context', 'citations', 'cache_control']);
  if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
  if (present(o.context)) ctx.lose(`${path}.context`, `${ctx.target} file parts have no context field.`);
  if (present(o.citations)) ctx.lose(`${path}.citations`, `${ctx.target} has no citations setting on files.`);
  const title = strF(o, 'title', path);
  const sp = `${path}.source`;
  const src = asObj(o.source, sp);
  const kind = typeOf(src, sp);
  const url = sourceUrl(src, sp, kind, ctx);
  if (url !== undefined) {
    return kind === 'base64'
      ? { type: 'file', data: url, filename: title, path }
      : { type: 'file', url, filename: title, path };
  }
  if (kind === 'text') {
    ctx.keys(src, sp, ['type', 'media_type', 'data']);
    const text = asStr(src.data, `${sp}.data`);
    // Responses takes a text file as an input_file (docs/protocols.md §8.1): the document stays a document.
    if (ctx.to === 'responses') {
      if (!title) ctx.add(path, 'Responses names every input_file: "document.txt" is filled in.', 'filename');
      const filename = title ?? { v: 'document.txt', path };
      return { type: 'file', data: `data:text/plain;base64,${textBase64(text)}`, filename, path };
    }
    const titleNote = title ? ' (its title is left out)' : '';
    ctx.change(path, `${ctx.target} has no plain-text documents: the document's text becomes a text part${titleNote}.`);
    return { type: 'text', text, path };
  }
  if (kind === 'file') return ctx.noFileId(path, 'the file inline', MESSAGES_STORE);
  ctx.lose(path, `A document with a "${kind}" source: ${ctx.target} has no equivalent.`);
  return undefined;
}

export function readMessagesToolResult(o: Json, path: string, ctx: Ctx): Turn {
  ctx.keys(o, path, ['type', 'tool_use_id', 'content', 'is_error', 'cache_control']);
  if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
  if (o.is_error !== undefined) {
    ctx.lose(
      `${path}.is_error`,
      o.is_error === true
        ? `${ctx.target} has no error flag on tool results: say it failed in the result text.`
        : `${ctx.target} has no error flag on tool results (false is the default anyway).`,
    );
  }
  const callId = asStr(o.tool_use_id, `${path}.tool_use_id`);
  const readPart = (bo: Json, bp: string, type: string) => readMessagesPart(bo, bp, type, ctx);
  const output = present(o.content) ? readParts(o.content, `${path}.content`, readPart) : '';
  return { role: 'tool', callId, output, path };
}

export function textBlock(p: Part, ctx: Ctx): Json | undefined {
  if (p.type === 'text') return { type: 'text', text: p.text };
  ctx.lose(p.path, `Messages takes only text here, not ${p.type}.`);
  return undefined;
}

/** The only image media types Messages accepts (docs/protocols.md §1.3); anything else is a 400 upstream. */
export const MESSAGES_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export function writeMessagesPart(p: Part, ctx: Ctx): Json | undefined {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: p.text };
    case 'refusal':
      ctx.lose(p.path, 'Messages has no refusal in earlier turns.');
      return undefined;
    case 'image': {
      const data = parseDataUrl(p.url);
      let source: Json;
      if (data) {
        if (!MESSAGES_IMAGE_TYPES.includes(data.mediaType)) {
          ctx.lose(
            p.path,
            `Messages takes only ${MESSAGES_IMAGE_TYPES.join(', ')} images; this one is ${data.mediaType}.`,
          );
          return undefined;
        }
        source = { type: 'base64', media_type: data.mediaType, data: data.data };
      } else if (/^https?:\/\//i.test(p.url)) {
        source = { type: 'url', url: p.url };
      } else {
        ctx.lose(p.path, 'Messages takes images as base64 data or an http(s) URL; this one is neither.');
        return undefined;
      }
      if (p.detail) ctx.lose(p.detail.path, 'Messages has no image detail setting.');
      return { type: 'image', source };
    }
    case 'file': {
      const block: Json = { type: 'document' };
      if (p.data !== undefined) {
        const data = parseDataUrl(p.data);
        if (data?.mediaType === 'text/plain') return textDocument(p, data.data, ctx);
        if (data && data.mediaType !== 'application/pdf') {
          ctx.lose(p.path, `Messages documents are PDFs or plain text; this file is ${data.mediaType}.`);
          return undefined;
        }
        if (!data) ctx.change(p.path, 'The file data has no media type: it is sent as a PDF.');
        block.source = { type: 'base64', media_type: 'application/pdf', data: data ? data.data : p.data };
      } else {
        block.source = { type: 'url', url: p.url };
      }
      if (p.filename) block.title = p.filename.v;
      return block;
    }
  }
}

/** A plain-text file as a Messages text document (its source carries the text itself, not base64). */
function textDocument(p: Extract<Part, { type: 'file' }>, b64: string, ctx: Ctx): Json | undefined {
  const text = base64Text(b64);
  if (text === undefined) {
    ctx.lose(p.path, 'This text file is not base64 of UTF-8 text, so Messages cannot take it as a text document.');
    return undefined;
  }
  const block: Json = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } };
  if (p.filename) block.title = p.filename.v;
  return block;
}
