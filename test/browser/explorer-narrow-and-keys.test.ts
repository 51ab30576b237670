import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { CHROMIUM, hasChromium, RESULTS, useExplorerSession } from './explorer-session.js';
import { LAB_MEMORY } from './seed.js';

/**
 * The explorer in headless Chromium beyond the desktop session of explorer.test.ts: a narrow screen,
 * and a server that asks for an API key. Same set-up: the real app on a real socket, the page built
 * from the current web/ sources.
 */

// Page globals, for the callbacks that run in the browser (this file is type-checked without the DOM lib).
declare const window: { innerWidth: number };
declare const document: { documentElement: { scrollWidth: number } };

if (!hasChromium) console.log(`SKIPPED: explorer browser test (no Chromium at ${CHROMIUM})`);

describe.skipIf(!hasChromium)('explorer page in Chromium', () => {
  const { base, browser, page, pageErrors } = useExplorerSession();

  it('fits a narrow screen without sideways scrolling', async () => {
    await page().goto(`${base()}/explore?workspace=default`);
    await page().locator('body[data-ready]').waitFor();
    await page().setViewportSize({ width: 390, height: 844 });
    await page().fill('#search-input', 'postgres');
    await page().press('#search-input', 'Enter');
    await page().locator('#search-results button', { hasText: 'We chose Postgres' }).click();
    await page().locator('#detail-title', { hasText: 'We chose Postgres' }).waitFor();
    const widths = await page().evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      view: window.innerWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.view);
    expect((await page().locator('#graph').boundingBox())!.height).toBeGreaterThan(300);
    await page().screenshot({ path: `${RESULTS}/explorer-narrow.png`, fullPage: true });
  });

  it("asks for an API key when the server uses keys, then works in the key's workspace", async () => {
    const keyed = await createTestApp({ env: { ENGRAM_API_KEYS: 'explorer-test-key-0123456789=lab:write' } });
    const keyedServer = createServer(keyed.app);
    try {
      const seeded = await keyed.gql(
        'mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }',
        { input: LAB_MEMORY },
        {
          headers: { authorization: 'Bearer explorer-test-key-0123456789' },
        },
      );
      expect(seeded.errors).toBeUndefined();
      await new Promise<void>((done) => keyedServer.listen(0, '127.0.0.1', done));
      const port = (keyedServer.address() as AddressInfo).port;
      const keyedPage = await browser().newPage({ viewport: { width: 1280, height: 800 } });
      await keyedPage.goto(`http://127.0.0.1:${port}/explore`);
      await keyedPage.locator('#status', { hasText: 'UNAUTHENTICATED' }).waitFor();
      await expect(keyedPage.locator('#api-key-input').isVisible()).resolves.toBe(true);
      await keyedPage.fill('#api-key-input', 'explorer-test-key-0123456789');
      await keyedPage.press('#api-key-input', 'Enter');
      await keyedPage.locator('#status', { hasText: 'Using the API key' }).waitFor();
      await expect(keyedPage.locator('#workspace-input').isDisabled()).resolves.toBe(true);
      await keyedPage.fill('#search-input', 'notebook');
      await keyedPage.press('#search-input', 'Enter');
      await keyedPage.locator('#search-results button', { hasText: 'Lab notebook' }).waitFor();
      await keyedPage.close();
    } finally {
      await new Promise((done) => keyedServer.close(done));
      await keyed.close();
    }
  });

  it('logged no script errors or blocked resources', () => {
    expect(pageErrors).toEqual([]);
  });
});
