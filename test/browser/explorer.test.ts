import { copyFileSync, mkdirSync } from 'node:fs';
import type { Core } from 'cytoscape';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, RESULTS, ROOT, useExplorerSession } from './explorer-session.js';

/**
 * End to end in headless Chromium: the real app on a real socket over a seeded SQLite graph, the
 * page built from the current web/ sources, driven by playwright-core. Steps share one page and
 * run in order, like a person's session.
 *
 * UPDATE_SCREENSHOTS=1 also copies the 1280x800 screenshot to docs/explorer.png.
 */

// Page globals, for the callbacks that run in the browser (this file is type-checked without the DOM lib).
declare const window: { engramExplorer?: { cy: Core } };
declare const history: { length: number };

if (!hasChromium) console.log(`SKIPPED: explorer browser test (no Chromium at ${CHROMIUM})`);

describe.skipIf(!hasChromium)('explorer page in Chromium', () => {
  const { app, base, page, pageErrors, drawn, nodeTitles, clickOnCanvas, status, viewOf, openShared } =
    useExplorerSession();

  it('loads at /explore with the relation vocabulary in the type filter', async () => {
    const response = await page().goto(`${base()}/explore`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    await page().locator('body[data-ready]').waitFor();
    expect(await page().title()).toBe('Engram explorer');
    expect(await page().locator('#type-options input[type=checkbox]').count()).toBeGreaterThanOrEqual(16);
    await expect(page().locator('#workspace-input').inputValue()).resolves.toBe('default');
  });

  it('searches with the keyboard and opens a memory with its neighborhood drawn', async () => {
    await page().locator('#search-input').focus();
    await page().keyboard.type('postgres');
    await page().keyboard.press('Enter');
    const hit = page().locator('#search-results button', { hasText: 'We chose Postgres' });
    await hit.waitFor();
    await hit.focus();
    await page().keyboard.press('Enter');
    await page().locator('#detail-title', { hasText: 'We chose Postgres' }).waitFor();

    const { nodes, edges } = await drawn();
    expect(nodes.map((node) => node.title).sort()).toEqual([
      'JSONB covers our document needs',
      'NoSQL scales better for us',
      'Ops team knows Postgres well',
      'SQLite for local development',
      'Tried MongoDB for events',
      'We chose Postgres',
      'We need ACID transactions',
    ]);
    expect(edges).toHaveLength(6);
    const byTarget = (title: string) => edges.find((edge) => edge.target === title || edge.source === title)!;
    // Thicker when stronger; pruned dashed; labelled by type; coloured by kind.
    expect(byTarget('We need ACID transactions').width).toBeGreaterThan(byTarget('SQLite for local development').width);
    expect(byTarget('NoSQL scales better for us')).toMatchObject({
      type: 'CONTRADICTS',
      lineStyle: 'dashed',
      display: 'element',
    });
    expect(byTarget('We need ACID transactions')).toMatchObject({ type: 'CAUSED_BY', lineStyle: 'solid' });
    const colourOf = (title: string) => nodes.find((node) => node.title === title)!.colour;
    expect(colourOf('We chose Postgres')).toBe(colourOf('SQLite for local development'));
    expect(colourOf('We chose Postgres')).not.toBe(colourOf('We need ACID transactions'));

    await expect(page().locator('#detail-content').textContent()).resolves.toContain('Primary store for accounts');
    await expect(page().locator('#details .tag').allTextContents()).resolves.toEqual(['db', 'architecture']);
    await expect(page().locator('#detail-edges li').count()).resolves.toBe(6);
    await expect(page().locator('#graph-counts').textContent()).resolves.toBe('7 memories · 6 edges (1 pruned)');
  });

  it('puts the opened memory in the address, and a fresh page at that address opens the same memory', async () => {
    expect(viewOf(page().url())).toBe('memory=postgres-choice');
    expect(new URL(page().url()).searchParams.get('workspace')).toBe('default');
    const shared = await openShared(page().url());
    try {
      await shared.locator('#detail-title', { hasText: 'We chose Postgres' }).waitFor();
      await expect(shared.locator('#detail-edges li').count()).resolves.toBe(6);
      await expect(shared.locator('#graph-counts').textContent()).resolves.toBe('7 memories · 6 edges (1 pruned)');
      // Restoring (on load and on reload) rewrites the entry it restores rather than adding one.
      const entries = await shared.evaluate(() => history.length);
      await shared.reload();
      await shared.locator('#detail-title', { hasText: 'We chose Postgres' }).waitFor();
      await expect(shared.evaluate(() => history.length)).resolves.toBe(entries);
    } finally {
      await shared.close();
    }
  });

  it('names a memory without a key by its id, and walks back and forward through opened memories', async () => {
    const shared = await openShared(`${base()}/explore?workspace=default#memory=need-acid`);
    try {
      await shared.locator('#detail-title', { hasText: 'We need ACID transactions' }).waitFor();
      await shared.locator('.on-graph summary').click();
      await shared.locator('#node-list button', { hasText: 'Billing needs a double-entry ledger' }).click();
      await shared.locator('#detail-title', { hasText: 'Billing needs a double-entry ledger' }).waitFor();
      expect(viewOf(shared.url())).toBe('memory=billing-ledger');

      await shared.goBack();
      await shared.locator('#detail-title', { hasText: 'We need ACID transactions' }).waitFor();
      expect(viewOf(shared.url())).toBe('memory=need-acid');
      await shared.goForward();
      await shared.locator('#detail-title', { hasText: 'Billing needs a double-entry ledger' }).waitFor();

      const unkeyed = await app().gql('mutation { createMemory(input: { title: "Nameless note" }) { id } }');
      const id = unkeyed.data?.createMemory.id as string;
      await shared.goto(`${base()}/explore?workspace=default#memory=${id}`);
      await shared.locator('#detail-title', { hasText: 'Nameless note' }).waitFor();
      expect(viewOf(shared.url())).toBe(`memory=${id}`);
      await app().gql('mutation ($id: ID!) { deleteMemory(id: $id) { deleted } }', { id });

      await shared.goto(`${base()}/explore?workspace=default#memory=no-such-memory`);
      await shared.locator('#status', { hasText: 'no longer exists' }).waitFor();
    } finally {
      await shared.close();
    }
  });

  it('expands a node clicked on the canvas, honouring the direction filter', async () => {
    await clickOnCanvas({ nodeTitle: 'We need ACID transactions' });
    await page().locator('#detail-title', { hasText: 'We need ACID transactions' }).waitFor();
    await page().waitForFunction(() => window.engramExplorer!.cy.nodes().length === 8);
    expect(await nodeTitles()).toContain('Billing needs a double-entry ledger');

    // Outgoing only: the Mongo trial has no outgoing edges, so nothing is added.
    await page().selectOption('#direction-select', 'OUTGOING');
    await page().locator('.on-graph summary').click();
    await page().locator('#node-list button', { hasText: 'Tried MongoDB for events' }).click();
    await status().filter({ hasText: 'Tried MongoDB for events: 0 neighbors' }).waitFor();
    expect(await nodeTitles()).not.toContain('Mongo trial lost writes on failover');

    await page().selectOption('#direction-select', 'INCOMING');
    await page().locator('#expand-memory').click();
    await page().waitForFunction(() => window.engramExplorer!.cy.nodes().length === 9);
    expect(await nodeTitles()).toContain('Mongo trial lost writes on failover');
    await page().selectOption('#direction-select', 'BOTH');
  });

  it('finds the shortest path between two picked memories and highlights it', async () => {
    await page().locator('#node-list button', { hasText: 'We chose Postgres' }).click();
    await page().locator('#detail-title', { hasText: 'We chose Postgres' }).waitFor();
    await page().locator('#path-start').click();

    await page().fill('#search-input', 'auditors');
    await page().press('#search-input', 'Enter');
    await page().locator('#search-results button', { hasText: 'Auditors ask for a full trail' }).click();
    await page().locator('#detail-title', { hasText: 'Auditors ask for a full trail' }).waitFor();
    await page().locator('#path-end').click();

    await page().fill('#max-hops', '2');
    await page().locator('#find-path').click();
    await page().locator('#path-result', { hasText: 'No path' }).waitFor();
    await expect(page().locator('#path-result').textContent()).resolves.toBe(
      'No path from postgres-choice to audit-trail within 2 hops',
    );

    await page().fill('#max-hops', '4');
    await page().locator('#find-path').click();
    await page().locator('#path-result', { hasText: '3 hops' }).waitFor();
    await expect(page().locator('#path-steps li').allTextContents()).resolves.toEqual([
      'We chose PostgresCAUSED_BY',
      'We need ACID transactionsCAUSED_BY',
      'Billing needs a double-entry ledgerRELATED_TO',
      'Auditors ask for a full trail',
    ]);
    const { nodes, edges } = await drawn();
    expect(nodes.filter((node) => node.classes.includes('on-path'))).toHaveLength(4);
    expect(edges.filter((edge) => edge.classes.includes('on-path')).map((edge) => edge.type)).toEqual(
      expect.arrayContaining(['CAUSED_BY', 'CAUSED_BY', 'RELATED_TO']),
    );
    expect(edges.filter((edge) => edge.classes.includes('on-path'))).toHaveLength(3);
    expect(nodes.filter((node) => node.classes.includes('faded')).length).toBeGreaterThan(0);
  });

  it('puts the path ends in the address: Back shows the shorter search again, a fresh page the same path', async () => {
    expect(viewOf(page().url())).toBe('memory=audit-trail&path=postgres-choice,audit-trail');
    const pathSteps = [
      'We chose PostgresCAUSED_BY',
      'We need ACID transactionsCAUSED_BY',
      'Billing needs a double-entry ledgerRELATED_TO',
      'Auditors ask for a full trail',
    ];

    await page().goBack();
    await page().locator('#path-result', { hasText: 'No path' }).waitFor();
    expect(viewOf(page().url())).toBe('memory=audit-trail&path=postgres-choice,audit-trail&hops=2');
    await expect(page().locator('#max-hops').inputValue()).resolves.toBe('2');
    await page().goForward();
    await page().locator('#path-result', { hasText: '3 hops' }).waitFor();
    await expect(page().locator('#max-hops').inputValue()).resolves.toBe('4');

    const shared = await openShared(page().url());
    try {
      await shared.locator('#path-result', { hasText: '3 hops from We chose Postgres to Auditors ask' }).waitFor();
      await expect(shared.locator('#path-steps li').allTextContents()).resolves.toEqual(pathSteps);
      await expect(shared.locator('#path-from').textContent()).resolves.toBe('We chose Postgres');
      await expect(shared.locator('#path-to').textContent()).resolves.toBe('Auditors ask for a full trail');
      await shared.locator('#detail-title', { hasText: 'Auditors ask for a full trail' }).waitFor();
      const onPath = await shared.evaluate(() => window.engramExplorer!.cy.$('.on-path').length);
      expect(onPath).toBe(7);
      await shared.locator('#clear-path').click();
      expect(viewOf(shared.url())).toBe('memory=audit-trail');
    } finally {
      await shared.close();
    }
  });

  it('weakens and strengthens an edge from the page; the drawing, the chart and the API agree', async () => {
    const edge = (await drawn()).edges.find(
      (e) => e.source === 'We chose Postgres' && e.target === 'We need ACID transactions',
    )!;
    expect(edge.weight).toBeCloseTo(0.9);
    await clickOnCanvas({ edgeId: edge.id });
    await page().locator('#detail-title', { hasText: 'CAUSED_BY' }).waitFor();
    await expect(page().locator('#detail-weight').textContent()).resolves.toBe('0.90');

    await page().fill('#adjust-amount', '0.5');
    await page().locator('#weaken-edge').click();
    await page().locator('#detail-weight', { hasText: '0.40' }).waitFor();
    await page().fill('#adjust-amount', '0.2');
    await page().locator('#strengthen-edge').click();
    await page().locator('#detail-weight', { hasText: '0.60' }).waitFor();

    const redrawn = (await drawn()).edges.find((e) => e.id === edge.id)!;
    expect(redrawn.weight).toBeCloseTo(0.6);
    expect(redrawn.width).toBeLessThan(edge.width);
    await expect(page().locator('#history-events li').count()).resolves.toBe(2);
    await expect(page().locator('#details svg.chart circle.point').count()).resolves.toBe(2);
    await expect(page().locator('#details svg.chart').getAttribute('aria-label')).resolves.toBe(
      'Weight history: from 0.90 to 0.60 over 2 changes',
    );

    const api = await app().gql(
      `query ($id: ID!) { edge(id: $id) { weight pruned history { source old new reason } } }`,
      { id: edge.id },
    );
    expect(api.data?.edge.weight).toBeCloseTo(0.6);
    expect(api.data?.edge.history).toHaveLength(2);
    expect(api.data?.edge.history[0]).toMatchObject({ source: 'CONSCIOUS', reason: 'explorer' });

    await page().screenshot({ path: `${RESULTS}/explorer.png` });
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(`${ROOT}docs`, { recursive: true });
      copyFileSync(`${RESULTS}/explorer.png`, `${ROOT}docs/explorer.png`);
    }

    // Weaken to the floor: pruned, drawn dashed, hidden by the toggle, and no longer on any path.
    await page().fill('#adjust-amount', '1');
    await page().locator('#weaken-edge').click();
    await page().locator('#detail-pruned', { hasText: 'yes' }).waitFor();
    expect((await drawn()).edges.find((e) => e.id === edge.id)).toMatchObject({
      weight: 0,
      lineStyle: 'dashed',
      display: 'element',
    });
    await page().locator('#show-pruned').uncheck();
    expect((await drawn()).edges.find((e) => e.id === edge.id)?.display).toBe('none');
    await page().locator('#show-pruned').check();
    await page().locator('#find-path').click();
    await page().locator('#path-result', { hasText: 'No path' }).waitFor();
    const pruned = await app().gql(`query ($id: ID!) { edge(id: $id) { weight pruned } }`, { id: edge.id });
    expect(pruned.data?.edge).toEqual({ weight: 0, pruned: true });
  });

  it('gives feedback on a memory and shows the new weight', async () => {
    await page().locator('#node-list button', { hasText: 'Billing needs a double-entry ledger' }).click();
    await page().locator('#detail-title', { hasText: 'Billing needs a double-entry ledger' }).waitFor();
    await expect(page().locator('#detail-weight').textContent()).resolves.toBe('0.50');
    await page().locator('#feedback-used').click();
    await page().locator('#status', { hasText: 'Feedback used' }).waitFor();
    await expect(page().locator('#detail-weight').textContent()).resolves.toBe('0.51');

    const api = await app().gql(
      `{ memory(key: "billing-ledger") { weight } weightEvents(memoryId: "billing-ledger") { source reason } }`,
    );
    expect(api.data?.memory.weight).toBeCloseTo(0.51);
    expect(api.data?.weightEvents[0]).toEqual({ source: 'CONSCIOUS', reason: 'explorer' });
  });

  it('switches workspace from the selector', async () => {
    await page().fill('#workspace-input', 'lab');
    await page().press('#workspace-input', 'Enter');
    await page().locator('#status', { hasText: 'Workspace lab' }).waitFor();
    expect((await drawn()).nodes).toHaveLength(0);
    expect(new URL(page().url()).searchParams.get('workspace')).toBe('lab');

    await page().fill('#search-input', 'postgres');
    await page().press('#search-input', 'Enter');
    await page().locator('#status', { hasText: 'Nothing matches' }).waitFor();
    await page().fill('#search-input', 'notebook');
    await page().press('#search-input', 'Enter');
    await page().locator('#search-results button', { hasText: 'Lab notebook' }).waitFor();
    await expect(page().locator('#search-results button').allTextContents()).resolves.toEqual([
      'Lab notebook: cache warmupexperiment',
    ]);
  });

  it('logged no script errors or blocked resources', () => {
    expect(pageErrors).toEqual([]);
  });
});
