/**
 * Ids that differ per session become placeholders (`<uuid-1>`, `<hex-1>`), the same id the same placeholder
 * throughout, so a replay can put fresh ones in and keep how they relate; paths and the model id likewise.
 * Used for the captures (scripts/capture-kit.ts) and for sessions saved as replays (saved-replays.ts).
 */
import type { CapturedRequest } from './index';

export function placeholders(
  requests: CapturedRequest[],
  o: { cwd?: string; home?: string; model: string },
): CapturedRequest[] {
  const maps = { uuid: new Map<string, string>(), hex: new Map<string, string>() };
  const name = (kind: keyof typeof maps, v: string) => {
    const m = maps[kind];
    if (!m.has(v)) m.set(v, `<${kind}-${m.size + 1}>`);
    return m.get(v) as string;
  };
  let text = JSON.stringify(requests);
  if (o.cwd) text = text.split(o.cwd).join('<cwd>');
  if (o.home) text = text.split(o.home).join('<home>');
  text = text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (v) => name('uuid', v.toLowerCase()))
    .replace(/\b[0-9a-f]{64}\b/g, (v) => name('hex', v));
  const out = JSON.parse(text) as CapturedRequest[];
  for (const r of out) {
    const b = r.body as Record<string, unknown> | undefined;
    if (b && typeof b === 'object' && b.model === o.model) b.model = '<model>';
  }
  return out;
}
