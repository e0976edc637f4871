/**
 * The environment a child process (the browser opener) starts with: the host's own, less every gateway
 * secret. `GATEWAY_API_KEY` and `GATEWAY_BASE_URL` (which may carry a user and password), any variable named
 * like a credential (the rule secret headers follow), and proxy settings that carry a user name or password.
 */
import { SECRET_HEADER } from '../../shared/request-headers';

/** Named like a credential but only a path a desktop needs: X11 refuses a browser that lacks it. */
const KEPT = new Set(['XAUTHORITY']);

const PROXY_VAR = /^(https?|all|no)_proxy$/i;

function hasUserinfo(value: string): boolean {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    return u.username !== '' || u.password !== '';
  } catch {
    return value.includes('@');
  }
}

export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (/^GATEWAY_/i.test(name)) continue;
    if (SECRET_HEADER.test(name) && !KEPT.has(name)) continue;
    if (PROXY_VAR.test(name) && hasUserinfo(value)) continue;
    out[name] = value;
  }
  return out;
}
