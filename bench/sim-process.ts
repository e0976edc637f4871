// The simulated gateway in its own process, so a benchmark measures the client, not the server sharing its core.
import { startSimulator } from '../electron/core/simulator';

const sim = await startSimulator({ port: 0, delayMs: 0 });
process.stdout.write(`${sim.url}\n`);
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
