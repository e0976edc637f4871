import { describe, expect, expectTypeOf, it } from 'vitest';
import { calls, type CallName, type PushName } from './calls';
import { CALL_NAMES, type PUSH_NAMES } from './names';

// Compile-time: a name in a domain file but not in the tuple (or the reverse) makes these two types differ,
// and `tsc` fails here. `satisfies` in names.ts already refuses a tuple name with no schema.
type Missing<Tuple extends readonly string[], All extends string> = Exclude<All, Tuple[number]>;
const noCallMissing: [Missing<typeof CALL_NAMES, CallName>] extends [never] ? true : false = true;
const noPushMissing: [Missing<typeof PUSH_NAMES, PushName>] extends [never] ? true : false = true;

describe('the contract names', () => {
  it('list every call with a schema, and only those, once each', () => {
    expectTypeOf<(typeof CALL_NAMES)[number]>().toEqualTypeOf<CallName>();
    expectTypeOf<(typeof PUSH_NAMES)[number]>().toEqualTypeOf<PushName>();
    expect(noCallMissing && noPushMissing).toBe(true);
    expect([...CALL_NAMES].sort()).toEqual(Object.keys(calls).sort());
    expect(new Set(CALL_NAMES).size).toBe(CALL_NAMES.length);
  });
});
