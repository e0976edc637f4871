import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // On CI a test that fails is run once more, so one slow moment on a shared machine does not hide a whole run;
  // it still counts as passed only as "flaky", and scripts/ci-summary.mjs names every flaky test.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.PW_JSON_OUTPUT ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]] : [['list']],
  use: {
    viewport: { width: 1440, height: 900 },
    // A rare failure (a click that started no run) left nothing to read: keep the trace of a failed test.
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
});
