import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Core } from 'cytoscape';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildExplorer } from '../../web/build.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedExplorerGraph } from './seed.js';

// Page globals, for the callbacks that run in the browser (this file is type-checked without the DOM lib).
declare const window: { engramExplorer?: { cy: Core } };

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RESULTS = `${ROOT}test-results`;
export const hasChromium = existsSync(CHROMIUM);

/** What the drawing holds, read from the Cytoscape instance the page exposes. */
/** What the drawing holds, read from the Cytoscape instance the page exposes. */
interface DrawnNode {
  id: string;
  title: string;
  kind: string;
  colour: string;
  classes: string[];
}
interface DrawnEdge {
  id: string;
  type: string;
  source: string;
  target: string;
  weight: number;
  width: number;
  lineStyle: string;
  display: string;
  classes: string[];
}

/**
 * The real app on a real socket over the seeded SQLite graph, the page built from the current web/
 * sources, and one headless Chromium page, for the calling describe block: its steps share the page
 * and run in order, like a person's session. Script errors and blocked resources collect in
 * `pageErrors`.
 */
export function useExplorerSession() {
  let app: TestApp;
  let server: Server;
  let base: string;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const drawn = () =>
    page.evaluate(() => {
      const cy = window.engramExplorer!.cy;
      return {
        nodes: cy.nodes().map((node) => ({
          id: node.id(),
          title: node.data('title') as string,
          kind: node.data('kind') as string,
          colour: node.style('background-color') as string,
          classes: node.classes() as unknown as string[],
        })),
        edges: cy.edges().map((edge) => ({
          id: edge.id(),
          type: edge.data('type') as string,
          source: edge.source().data('title') as string,
          target: edge.target().data('title') as string,
          weight: edge.data('weight') as number,
          width: edge.numericStyle('width'),
          lineStyle: edge.style('line-style') as string,
          display: edge.style('display') as string,
          classes: edge.classes() as unknown as string[],
        })),
      };
    }) as Promise<{ nodes: DrawnNode[]; edges: DrawnEdge[] }>;

  const nodeTitles = async () => (await drawn()).nodes.map((node) => node.title).sort();

  /** Clicks the canvas where a node (by title) or an edge (by id) is drawn: a real mouse click. */
  const clickOnCanvas = async (target: { nodeTitle: string } | { edgeId: string }) => {
    const point = await page.evaluate((t) => {
      const cy = window.engramExplorer!.cy;
      if ('nodeTitle' in t) {
        const node = cy.nodes().filter((n) => n.data('title') === t.nodeTitle);
        return node.nonempty() ? node.renderedPosition() : null;
      }
      const edge = cy.getElementById(t.edgeId);
      return edge.nonempty() ? edge.renderedMidpoint() : null;
    }, target);
    expect(point, `${JSON.stringify(target)} is drawn`).not.toBeNull();
    const box = await page.locator('#graph').boundingBox();
    await page.mouse.click(box!.x + point!.x, box!.y + point!.y);
  };

  const status = () => page.locator('#status');

  /** The address bar's view part, decoded for reading: `memory=...&path=...`. */
  const viewOf = (url: string) => decodeURIComponent(new URL(url).hash.replace(/^#/, ''));

  /** A new browser context (no history, no storage) opened at `url`, as a person the link was sent to. */
  const openShared = async (url: string) => {
    const shared = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    shared.setDefaultTimeout(5_000);
    shared.on('pageerror', (error) => pageErrors.push(error.message));
    await shared.goto(url);
    await shared.locator('body[data-ready]').waitFor();
    return shared;
  };

  beforeAll(async () => {
    await buildExplorer();
    app = await createTestApp();
    await seedExplorerGraph(app);
    server = createServer(app.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(5_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    mkdirSync(RESULTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => server?.close(done));
    await app?.close();
  });

  return {
    app: () => app,
    base: () => base,
    browser: () => browser,
    page: () => page,
    pageErrors,
    drawn,
    nodeTitles,
    clickOnCanvas,
    status,
    viewOf,
    openShared,
  };
}
