/** Reading a JSON document that was cut short: what a reset or stalled body held so far. */
type Frame = {
  close: '}' | ']';
  expect: 'first-key' | 'key' | 'colon' | 'value' | 'first-value' | 'comma';
  key?: string;
};

/**
 * A JSON document cut short (an error body reset or stalled mid-way), closed after its last complete value
 * so it parses: `{"error":{"type":"overloaded_error","message":"Over` → `{"error":{"type":"overloaded_error"}}`.
 * Undefined unless the text is the start of a valid object or array: malformed JSON is not "cut".
 * `keepCutStrings`: the keys whose string value is kept as far as it came when the cut fell inside it
 * (`"text":"Hel"`), for a reply whose partial text is the point. Any other cut string is dropped: half an id, a
 * model or a stop reason would read as a whole one.
 */
export function closeCutJson(text: string, { keepCutStrings }: { keepCutStrings?: ReadonlySet<string> } = {}): unknown {
  const stack: Frame[] = [];
  let i = 0;
  let safe = -1;
  let closers = '';
  const n = text.length;
  const skipWs = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const mark = () => {
    safe = i;
    closers = stack
      .map((f) => f.close)
      .reverse()
      .join('');
  };
  /** Index after the string starting at i, or -1 when the text ends inside it. */
  const stringEnd = (): number => {
    for (let j = i + 1; j < n; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j + 1;
    }
    return -1;
  };
  const valueDone = () => {
    stack[stack.length - 1].expect = 'comma';
    mark();
  };
  /** false: not JSON; undefined: the text ends inside the value. */
  const value = (): boolean | undefined => {
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c === '{' ? { close: '}', expect: 'first-key' } : { close: ']', expect: 'first-value' });
      i++;
      mark();
      return true;
    }
    if (c === '"') {
      const end = stringEnd();
      if (end < 0) {
        const top = stack.at(-1);
        if (keepCutStrings && top?.close === '}' && top.key !== undefined && keepCutStrings.has(top.key)) {
          // Shortened until it closes: the cut may have split an escape (`\`, `\u00e`).
          const rest = text.slice(i);
          for (let k = 0; k <= 6 && k < rest.length; k++) {
            const closed = `${rest.slice(0, rest.length - k)}"`;
            try {
              JSON.parse(closed);
            } catch {
              continue;
            }
            mark();
            closers = closed + closers;
            break;
          }
        }
        return undefined;
      }
      i = end;
      valueDone();
      return true;
    }
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) {
      const rest = text.slice(i);
      return rest === '-' || ['true', 'false', 'null'].some((l) => l.startsWith(rest)) ? undefined : false;
    }
    // A number or literal that runs to the end may itself be cut (`12` of `123`, `tr` of `true`).
    if (i + m[0].length >= n) return undefined;
    i += m[0].length;
    valueDone();
    return true;
  };

  skipWs();
  if (text[i] !== '{' && text[i] !== '[') return undefined;
  value();
  for (;;) {
    skipWs();
    if (i >= n) break;
    const top = stack.at(-1);
    // The document closed and more follows: that is malformed, not cut.
    if (!top) return undefined;
    const c = text[i];
    let ok: boolean | undefined = true;
    if ((top.expect === 'first-key' || top.expect === 'comma') && c === top.close) {
      i++;
      stack.pop();
      if (stack.length === 0) return undefined;
      valueDone();
    } else if (top.expect === 'first-value' && c === ']') {
      i++;
      stack.pop();
      if (stack.length === 0) return undefined;
      valueDone();
    } else if (top.expect === 'comma') {
      if (c !== ',') return undefined;
      i++;
      top.expect = top.close === '}' ? 'key' : 'value';
    } else if (top.expect === 'first-key' || top.expect === 'key') {
      if (c !== '"') return undefined;
      const end = stringEnd();
      if (end < 0) break;
      try {
        top.key = JSON.parse(text.slice(i, end)) as string;
      } catch {
        return undefined;
      }
      i = end;
      top.expect = 'colon';
    } else if (top.expect === 'colon') {
      if (c !== ':') return undefined;
      i++;
      top.expect = 'value';
    } else {
      ok = value();
      if (ok === false) return undefined;
    }
    if (ok === undefined) break;
  }
  if (safe < 0) return undefined;
  try {
    return JSON.parse(text.slice(0, safe) + closers);
  } catch {
    return undefined;
  }
}
