// What the load bench runs, bundled as the shipped hosts bundle the core (bench/built.ts).
export { createCore } from '../electron/core/service';
export { LayeredVault } from '../electron/core/vault';
export { DEMO_KEY } from '../electron/core/simulator';
