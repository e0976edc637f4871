import type { Browser } from '@playwright/test';

export function startApp(chromiumArgs?: string[]): Promise<{ browser: Browser; url: string; close(): Promise<void> }>;
