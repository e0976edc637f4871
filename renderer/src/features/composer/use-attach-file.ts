/**
 * Attaching files to the conversation, one way for the Attach buttons, a paste and a drop: the bytes decide what
 * a file is (an image, a PDF, plain text), the protocol's limits decide whether it may go, and a refusal is said
 * in a sentence that names the file. What the Message box holds becomes the turn first, as Send would.
 */
import { useCallback, useState, type ClipboardEvent, type DragEvent } from 'react';
import { sniffDocument } from '../../../../shared/documents';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { addImage, addPart } from './body-fields';
import { bodyToSend } from './body-to-send';
import { documentPart, documentRefusal } from './document-parts';
import { NOT_AN_IMAGE, sniffImage } from './image-file';

export type AttachKind = 'image' | 'document' | 'any';

export const NOT_A_DOCUMENT = 'This file is not a PDF or plain text (UTF-8), so it was not attached.';
const NOT_ATTACHABLE = 'This file is not a PNG, JPEG, GIF or WebP image, a PDF or plain text, so it was not attached.';

function base64(buf: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * Whether the browser can decode the image: a valid header over damaged data would go out as an image no model
 * can read. Where the browser has no decoder to ask (tests under jsdom), the signature alone decides.
 */
async function decodes(bytes: Uint8Array, type: string): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return true;
  try {
    (await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }))).close();
    return true;
  } catch {
    return false;
  }
}

const UNDECODABLE = (type: string) =>
  `It starts like a ${type.slice(6).toUpperCase()} image but its image data cannot be decoded (damaged or cut short), so it was not attached.`;

type Body = Record<string, unknown>;
type Attached = { next: Body } | { refused: string };

/** The body with `file` attached, or why it was not. */
async function attachOne(protocol: ProtocolId, body: Body, file: File, kind: AttachKind): Promise<Attached> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const image = kind === 'document' ? undefined : sniffImage(bytes);
  if (image) {
    if (!(await decodes(bytes, image))) return { refused: UNDECODABLE(image) };
    return { next: addImage(protocol, body, image, base64(bytes)) };
  }
  if (kind === 'image') return { refused: NOT_AN_IMAGE };
  const type = sniffDocument(bytes);
  if (!type) return { refused: kind === 'document' ? NOT_A_DOCUMENT : NOT_ATTACHABLE };
  const doc = { name: file.name || (type === 'application/pdf' ? 'document.pdf' : 'document.txt'), type, bytes };
  const refused = documentRefusal(protocol, doc);
  return refused ? { refused } : { next: addPart(protocol, body, documentPart(protocol, doc)) };
}

/** `attach(files, kind)` adds each file to the tab's conversation; `refused` says what was not attached. */
export function useAttachFile(protocol: ProtocolId) {
  const [refused, setRefused] = useState<string>();
  const attach = useCallback(
    async (files: File[], kind: AttachKind) => {
      const problems: string[] = [];
      for (const file of files) {
        const { body, draft } = useAppStore.getState().composers[protocol];
        const got = await attachOne(protocol, bodyToSend(protocol, body, draft), file, kind);
        if ('refused' in got) problems.push(`${file.name || 'The pasted file'}: ${got.refused}`);
        else {
          const s = useAppStore.getState();
          s.composerDraftTyped(protocol, '');
          s.composerBodyEdited(protocol, got.next);
        }
      }
      setRefused(problems.length ? problems.join(' ') : undefined);
    },
    [protocol],
  );
  return { attach, refused };
}

/**
 * The paste, dragover and drop handlers of an element: files they carry are attached as the Attach buttons
 * attach them ("any": the bytes say image or document); a paste of text alone is left to the text box.
 */
export function fileDropHandlers(attach: (files: File[], kind: AttachKind) => Promise<void>) {
  const take = (e: { preventDefault(): void }, data: DataTransfer | null) => {
    const files = [...(data?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    void attach(files, 'any');
  };
  return {
    onPaste: (e: ClipboardEvent) => take(e, e.clipboardData),
    onDragOver: (e: DragEvent) => {
      if ([...(e.dataTransfer?.types ?? [])].includes('Files')) e.preventDefault();
    },
    onDrop: (e: DragEvent) => take(e, e.dataTransfer),
  };
}
