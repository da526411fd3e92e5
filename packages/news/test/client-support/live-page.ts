/** One live service and one Chromium per test file, opened in beforeAll and closed in afterAll. */
import { afterAll, beforeAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { buildTestRelease, startService, type LiveService } from './stack.ts';

export interface LivePages {
  readonly service: LiveService;
  /** A new tab on `path` of the service; a page error fails the test. */
  open(path?: string, width?: number): Promise<Page>;
}

/** Registers the hooks; the returned object is usable inside tests (after beforeAll ran). */
export function useLivePages(indexVersion: string, viewportHeight = 1000): LivePages {
  let root = '';
  let service: LiveService | undefined;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), `${indexVersion}-`));
    service = await startService(await buildTestRelease(root, indexVersion), indexVersion);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    if (root !== '') await rm(root, { recursive: true, force: true });
  });
  return {
    get service() {
      if (service === undefined) throw new Error('the live service starts in beforeAll');
      return service;
    },
    async open(path = '', width = 1280) {
      if (browser === undefined || service === undefined) throw new Error('the browser starts in beforeAll');
      const page = await browser.context.newPage();
      page.on('pageerror', (e) => {
        throw e;
      });
      await page.setViewportSize({ width, height: viewportHeight });
      await page.goto(`${service.url}/${path}`);
      return page;
    },
  };
}
