import type { ProtocolId } from '../../../../shared/protocols/types';
import { maxTokensField } from '../../../../shared/protocols/compose';
import { numberText, setField, setStream, stopsKey, stopsText, type FieldCodec } from './body-fields';
import { PROTOCOL_PARAMS } from './protocol-params';
import { ToolsField, type ToolsText } from './ToolsField';
import { useComposerBody } from './use-composer-body';
import { useFieldText } from './use-field-text';

/** One text field over one body field, with its own error under it. */
function FieldInput({
  protocol,
  field,
  label,
  codec,
  inputMode,
}: {
  protocol: ProtocolId;
  field: string;
  label: string;
  codec: FieldCodec;
  inputMode: 'numeric' | 'decimal';
}) {
  const { body, set } = useComposerBody(protocol);
  const text = useFieldText(body[field], codec, (v) => set(setField(body, field, v)), label);
  return (
    <label>
      <span className="label">{label}</span>
      <input aria-label={label} inputMode={inputMode} {...text.props} />
      {text.error && (
        <span id={text.errorId} className="field-error">
          {text.error}
        </span>
      )}
    </label>
  );
}

function Stops({ protocol, name }: { protocol: ProtocolId; name: string }) {
  const { body, set } = useComposerBody(protocol);
  const stops = useFieldText(body[stopsKey(protocol)], stopsText, (v) => set(setField(body, stopsKey(protocol), v)));
  return (
    <label>
      <span className="label">{name} (one per line)</span>
      <textarea
        aria-label="Stop sequences"
        rows={Math.min(4, Math.max(1, stops.props.value.split('\n').length))}
        {...stops.props}
      />
    </label>
  );
}

export function Parameters({ protocol, tools }: { protocol: ProtocolId; tools: ToolsText }) {
  const { body, set } = useComposerBody(protocol);
  const params = PROTOCOL_PARAMS[protocol];
  const Extra = params.extra;
  const maxField = maxTokensField(protocol);
  return (
    <section className="card params" aria-label="Parameters">
      <div className="grid">
        <FieldInput protocol={protocol} field={maxField} label={maxField} codec={numberText} inputMode="numeric" />
        <FieldInput
          protocol={protocol}
          field="temperature"
          label="temperature"
          codec={numberText}
          inputMode="decimal"
        />
        <FieldInput protocol={protocol} field="top_p" label="top_p" codec={numberText} inputMode="decimal" />
        {params.stopsName && <Stops protocol={protocol} name={params.stopsName} />}
      </div>
      <div className="row wrap">
        <label className="inline">
          <input
            type="checkbox"
            aria-label="Stream"
            checked={body.stream === true}
            onChange={(e) => set(setStream(protocol, body, e.target.checked))}
          />{' '}
          stream
        </label>
        <Extra protocol={protocol} />
      </div>
      <ToolsField protocol={protocol} tools={tools} />
    </section>
  );
}
