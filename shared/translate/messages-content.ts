/** Messages content blocks (docs/protocols.md §1.3): text, image and document blocks, read and written. */
import {
  asArr,
  asObj,
  asStr,
  Ctx,
  type Json,
  notTranslatedBlock,
  parseDataUrl,
  type Part,
  present,
  strF,
  type Turn,
  typeOf,
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
  if (type === 'image') {
    ctx.keys(o, path, ['type', 'source', 'cache_control']);
    if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
    const sp = `${path}.source`;
    const src = asObj(o.source, sp);
    const st = typeOf(src, sp);
    if (st === 'base64') {
      ctx.keys(src, sp, ['type', 'media_type', 'data']);
      return {
        type: 'image',
        url: `data:${asStr(src.media_type, `${sp}.media_type`)};base64,${asStr(src.data, `${sp}.data`)}`,
        path,
      };
    }
    if (st === 'url') {
      ctx.keys(src, sp, ['type', 'url']);
      return { type: 'image', url: asStr(src.url, `${sp}.url`), path };
    }
    if (st === 'file') {
      ctx.lose(
        path,
        `A file id from the Messages file store: ${ctx.target} cannot read it. Send the image inline instead.`,
      );
      return undefined;
    }
    notTranslatedBlock(path, `image source ${st}`, ctx);
    return undefined;
  }
  if (type === 'document') {
    ctx.keys(o, path, ['type', 'source', 'title', 'context', 'citations', 'cache_control']);
    if (present(o.cache_control)) ctx.noCache(`${path}.cache_control`);
    if (present(o.context)) ctx.lose(`${path}.context`, `${ctx.target} file parts have no context field.`);
    if (present(o.citations)) ctx.lose(`${path}.citations`, `${ctx.target} has no citations setting on files.`);
    const title = strF(o, 'title', path);
    const sp = `${path}.source`;
    const src = asObj(o.source, sp);
    const st = typeOf(src, sp);
    if (st === 'base64') {
      ctx.keys(src, sp, ['type', 'media_type', 'data']);
      const data = `data:${asStr(src.media_type, `${sp}.media_type`)};base64,${asStr(src.data, `${sp}.data`)}`;
      return { type: 'file', data, filename: title, path };
    }
    if (st === 'url') {
      ctx.keys(src, sp, ['type', 'url']);
      return { type: 'file', url: asStr(src.url, `${sp}.url`), filename: title, path };
    }
    if (st === 'text') {
      ctx.keys(src, sp, ['type', 'media_type', 'data']);
      ctx.change(
        path,
        `${ctx.target} has no plain-text documents: the document's text becomes a text part${title ? ' (its title is left out)' : ''}.`,
      );
      return { type: 'text', text: asStr(src.data, `${sp}.data`), path };
    }
    if (st === 'file') {
      ctx.lose(
        path,
        `A file id from the Messages file store: ${ctx.target} cannot read it. Send the file inline instead.`,
      );
      return undefined;
    }
    ctx.lose(path, `A document with a "${st}" source: ${ctx.target} has no equivalent.`);
    return undefined;
  }
  if (type === 'thinking' || type === 'redacted_thinking') {
    ctx.lose(path, `${ctx.target} has no thinking blocks and their signatures cannot be recreated.`);
    return undefined;
  }
  notTranslatedBlock(path, type, ctx);
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
  const cp = `${path}.content`;
  let output: string | Part[] = '';
  if (typeof o.content === 'string') output = o.content;
  else if (present(o.content)) {
    output = [];
    for (const [k, block] of asArr(o.content, cp).entries()) {
      const bp = `${cp}[${k}]`;
      const bo = asObj(block, bp);
      const part = readMessagesPart(bo, bp, typeOf(bo, bp), ctx);
      if (part) output.push(part);
    }
  }
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
