import type { AttachKind } from './use-attach-file';

const DOCUMENT_ACCEPT = 'application/pdf,text/plain,.pdf,.txt,.md,.csv,.json';

function AttachInput({ name, accept, kind, attach }: Props & { name: string; accept: string; kind: AttachKind }) {
  return (
    <label className="ghost file-button">
      {name}
      <input
        type="file"
        aria-label={name}
        accept={accept}
        hidden
        onChange={(e) => {
          const input = e.target;
          const files = [...(input.files ?? [])];
          void attach(files, kind).finally(() => (input.value = ''));
        }}
      />
    </label>
  );
}

interface Props {
  attach: (files: File[], kind: AttachKind) => Promise<void>;
  refused?: string;
}

/** "Attach image" and "Attach document"; a paste or a drop on the conversation attaches the same way. */
export function AttachButtons({ attach, refused }: Props) {
  return (
    <div className="row">
      <AttachInput
        name="Attach image"
        accept="image/png,image/jpeg,image/gif,image/webp"
        kind="image"
        attach={attach}
      />
      <AttachInput name="Attach document" accept={DOCUMENT_ACCEPT} kind="document" attach={attach} />
      <span className="muted small">or paste / drop a file</span>
      {refused && (
        <span className="field-error" role="alert">
          {refused}
        </span>
      )}
    </div>
  );
}
