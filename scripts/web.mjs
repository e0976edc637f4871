// npm run web [-- --port N --data-dir DIR --no-open]: build when sources changed, then start the browser host.
import { runWebHost } from './web-host.mjs';

await runWebHost(process.argv.slice(2));
