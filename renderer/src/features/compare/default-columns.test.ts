import { describe, expect, it } from 'vitest';
import type { CapabilityResultView, ModelInfo } from '../../../../shared/contract';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { defaultColumns, modelsLayout, protocolLayout } from './default-columns';

const model = (id: string, family: ModelInfo['family'] = 'anthropic'): ModelInfo => ({ id, family });
const probed = (id: string, protocol: ProtocolId, status: number): CapabilityResultView => ({
  model: id,
  protocol,
  capability: 'streaming',
  outcome: status === 200 ? 'proven' : 'error',
  message: '',
  status,
  evidence: { runIds: [], fields: {}, explanation: '' },
  at: new Date().toISOString(),
  ageMs: 0,
  attempts: 1,
  durationMs: 1,
});
const modelsOf = (columns?: { model: string }[]) => columns?.map((c) => c.model);

describe('Compare columns from the profile', () => {
  it('a model whose probe got a 404 on a protocol is not laid out on it', () => {
    const models = [model('chat-only'), model('everywhere')];
    const results = [probed('chat-only', 'responses', 404)];
    const layout = protocolLayout({ profileId: 'p', models, results }, ['messages', 'chat', 'responses']);
    expect(modelsOf(layout.columns)).toEqual(['everywhere', 'everywhere', 'everywhere']);
    expect(layout.note).toBeUndefined();
  });

  it('prefers a model whose family is known, and never a fault model', () => {
    const models = [
      { ...model('sim-fault-cut'), fault: true as const },
      model('relay-x', 'unknown'),
      model('gpt-y', 'openai'),
    ];
    expect(modelsOf(defaultColumns({ profileId: 'p', models }).columns)).toEqual(['gpt-y', 'gpt-y']);
  });

  it('keeps the first column’s model when the profile lists it and nothing says it misses a protocol', () => {
    const models = [model('a'), model('b')];
    const layout = protocolLayout({ profileId: 'p', models }, ['messages', 'chat', 'responses'], 'b');
    expect(modelsOf(layout.columns)).toEqual(['b', 'b', 'b']);
  });

  it('"Same protocol, N models" leaves out models known not to serve that protocol', () => {
    const models = [model('a'), model('b'), model('c')];
    const layout = modelsLayout({ profileId: 'p', models, results: [probed('b', 'chat', 404)] }, 'chat');
    expect(modelsOf(layout.columns)).toEqual(['a', 'c']);
  });
});
