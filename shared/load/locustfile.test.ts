import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY_ENV, locustConfig, locustfile, pythonJsonLiteral, type LocustInput } from './locustfile';
import { LoadShapeSchema, targetAt, type LoadShape } from './shape';

const PYTHON = '/usr/bin/python3';
const hasLocust = existsSync(PYTHON) && existsSync('/usr/bin/locust');
const dir = mkdtempSync(path.join(tmpdir(), 'gp-locustfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE = 'x"); import os; os.system("touch /tmp/pwned") #\\ """ \' \n\r\u2028 😀 \ud800';

const input = (over: Partial<LocustInput> = {}): LocustInput => ({
  baseUrl: 'https://relay.example.com/',
  authScheme: 'native',
  hasKey: true,
  extraHeaders: { 'x-tenant': 'blue', 'x-portkey-virtual-key': '', 'x-route': '' },
  secretHeaders: ['x-route'],
  protocol: 'messages',
  body: { model: 'claude-sim-sonnet', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
  shape: { kind: 'fixed' },
  fixed: { requests: 60, concurrency: 4 },
  idleTimeoutS: 90,
  source: 'Messages composer',
  ...over,
});

/** What Python reads: the module parsed (not run), CONFIG's argument evaluated as a literal, then json.loads. */
function pythonConfig(file: string): { config: unknown; statements: number } {
  const at = path.join(dir, `f${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(at, file);
  const script = [
    'import ast, json, sys',
    'tree = ast.parse(open(sys.argv[1], encoding="utf-8").read())',
    'node = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "CONFIG")',
    'arg = node.value.args[0]',
    'assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)',
    'print(json.dumps({"config": json.loads(arg.value), "statements": len(tree.body)}))',
  ].join('\n');
  return JSON.parse(execFileSync(PYTHON, ['-c', script, at], { encoding: 'utf8' })) as never;
}

describe('Export as Locust', () => {
  it('writes the request as the app sends it, the key and secret headers only as environment variables', () => {
    const config = locustConfig(input());
    expect(config).toMatchObject({
      protocol: 'messages',
      baseUrl: 'https://relay.example.com',
      path: '/v1/messages',
      keyEnv: KEY_ENV,
      keyRequired: true,
      shape: { kind: 'fixed', requests: 60, concurrency: 4 },
    });
    expect(config.headers).toEqual({
      accept: 'text/event-stream',
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'x-tenant': 'blue',
    });
    expect(config.envHeaders).toEqual([
      ['x-api-key', '', KEY_ENV],
      ['x-portkey-virtual-key', '', 'X_PORTKEY_VIRTUAL_KEY'],
      ['x-route', '', 'X_ROUTE'],
    ]);
    const chat = locustConfig(input({ protocol: 'chat', authScheme: 'native' }));
    expect(chat.envHeaders).toContainEqual(['authorization', 'Bearer ', KEY_ENV]);
    const text = locustfile(input());
    expect(text).toContain('export X_PORTKEY_VIRTUAL_KEY=...');
    expect(text).toContain('class GatewayShape(LoadTestShape)');
  });

  it('never sends Proxy-Authorization to the gateway', () => {
    const config = locustConfig(input({ extraHeaders: { 'proxy-authorization': 'Basic abc' } }));
    expect(JSON.stringify(config)).not.toContain('proxy-authorization');
  });

  it('carries a timed shape as it is and N × C with its count, rate and cap', () => {
    const ramp = LoadShapeSchema.parse({ kind: 'ramp', from: 2, to: 8, durationS: 30 });
    expect(locustConfig(input({ shape: ramp })).shape).toEqual(ramp);
    const fixed = { requests: 10, concurrency: 2, ratePerSec: 5, durationCapS: 60 };
    expect(locustConfig(input({ fixed })).shape).toEqual({ kind: 'fixed', ...fixed });
  });

  it('embeds a hostile model id, header value and source as data: ASCII, one literal, the same value back', () => {
    const hostile = input({
      body: { model: HOSTILE, stream: true, messages: [{ role: 'user', content: HOSTILE }] },
      extraHeaders: { 'x-tenant': HOSTILE },
      source: `preset ${HOSTILE}`,
    });
    const text = locustfile(hostile);
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    const line = text.split('\n').find((l) => l.startsWith('CONFIG = '))!;
    const literal = line.slice('CONFIG = json.loads('.length, -1);
    expect(literal).toBe(pythonJsonLiteral(locustConfig(hostile)));
    expect(JSON.parse(JSON.parse(literal) as string)).toEqual(JSON.parse(JSON.stringify(locustConfig(hostile))));
    // The source is a comment: its line break and quotes must not start a line of code.
    expect(text.split('\n').filter((l) => l.includes('os.system'))).toHaveLength(2);
  });

  it.skipIf(!hasLocust)('reads back in Python exactly as written, with no statement added', () => {
    const plain = pythonConfig(locustfile(input()));
    const hostile = input({
      body: { model: HOSTILE, stream: true, messages: [] },
      extraHeaders: { 'x-tenant': HOSTILE },
      source: HOSTILE,
    });
    const read = pythonConfig(locustfile(hostile));
    expect(read.statements).toBe(plain.statements);
    const expected = JSON.parse(JSON.stringify(locustConfig(hostile))) as { body: { model: string } };
    // A lone surrogate cannot be UTF-8; Python's json keeps it as the same code point, JSON.stringify as \ud800.
    expect(read.config).toEqual(expected);
  });

  it.skipIf(!hasLocust)('follows the shape as targetAt does, second by second', () => {
    const shapes: LoadShape[] = [
      LoadShapeSchema.parse({ kind: 'ramp', from: 1, to: 6, durationS: 10 }),
      LoadShapeSchema.parse({
        kind: 'stages',
        stages: [
          { durationS: 5, concurrency: 4 },
          { durationS: 10, ratePerSec: 2.5 },
          { durationS: 5, concurrency: 16 },
        ],
      }),
      LoadShapeSchema.parse({ kind: 'soak', durationS: 60, ratePerSec: 5, arrival: 'poisson' }),
    ];
    const times = [0, 0.5, 1, 2.5, 3, 4.99, 5, 7.5, 9.99, 10, 14.9, 15, 19.9, 20, 59.9, 60];
    const files = shapes.map((shape) => {
      const at = path.join(dir, `shape-${shape.kind}.py`);
      writeFileSync(at, locustfile(input({ shape })));
      return at;
    });
    // One Python for the three files: importing Locust takes seconds.
    const script = [
      'import importlib.util, json, sys',
      'out = []',
      'for k, f in enumerate(sys.argv[2:]):',
      '    spec = importlib.util.spec_from_file_location("lf%d" % k, f)',
      '    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)',
      '    out.append([m.target_at(t) for t in json.loads(sys.argv[1])])',
      'print(json.dumps(out))',
    ].join('\n');
    const out = JSON.parse(
      execFileSync(PYTHON, ['-c', script, JSON.stringify(times), ...files], { encoding: 'utf8' }),
    ) as unknown[];
    shapes.forEach((shape, k) => {
      const expected = times.map((t) => {
        const x = targetAt(shape, t);
        return x ? [x.stage, x.label, x.concurrency ?? null, x.ratePerSec ?? null] : null;
      });
      expect(out[k], shape.kind).toEqual(expected);
    });
  });
});
