import type { Core } from 'cytoscape';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, RESULTS, useExplorerSession } from './explorer-session.js';

/**
 * The explorer's recall box in headless Chromium, against the real app on a real socket over the
 * seeded SQLite graph (seed.ts): need-acid -CAUSED_BY(0.8)-> billing-ledger -RELATED_TO(0.6)-> audit-trail.
 */

// Page globals, for the callbacks that run in the browser (this file is type-checked without the DOM lib).
declare const window: { engramExplorer?: { cy: Core } };

if (!hasChromium) console.log(`SKIPPED: explorer recall browser test (no Chromium at ${CHROMIUM})`);

describe.skipIf(!hasChromium)('explorer recall box in Chromium', () => {
  const { app, base, page, pageErrors, status, viewOf, openShared } = useExplorerSession();

  const edgeBetween = async (from: string, to: string): Promise<{ id: string; weight: number }> => {
    const answer = await app().gql<{ edgesBetween: { id: string; weight: number }[] }>(
      'query ($from: ID!, $to: ID!) { edgesBetween(from: $from, to: $to) { id weight } }',
      { from, to },
    );
    const [edge] = answer.data?.edgesBetween ?? [];
    if (!edge) throw new Error(`no edge ${from} -> ${to}`);
    return edge;
  };
  const memoryId = async (key: string): Promise<string> =>
    (await app().gql<{ memory: { id: string } }>('query ($key: String) { memory(key: $key) { id } }', { key })).data
      ?.memory.id ?? '';
  const highlighted = () =>
    page().evaluate(() => {
      const cy = window.engramExplorer!.cy;
      return {
        nodes: cy.nodes('.on-path').map((node) => node.id()),
        edges: cy.edges('.on-path').map((edge) => edge.id()),
      };
    });
  const resultItem = async (key: string) =>
    page().locator(`#recall-results li[data-memory-id="${await memoryId(key)}"]`);

  it('recalls by words: the lexical hit first, the memories two weighted hops out after it, with scores', async () => {
    await page().goto(`${base()}/explore`);
    await page().locator('body[data-ready]').waitFor();
    await page().locator('#recall-input').fill('ACID transactions');
    await page().locator('#recall-form button[type=submit]').click();
    await page().locator('#recall-results li').first().waitFor();

    const items = page().locator('#recall-results li');
    await expect(items.first().locator('.title').textContent()).resolves.toBe('We need ACID transactions');
    await expect(items.first().locator('.score').textContent()).resolves.toMatch(
      /^\d\.\d{3} · lexical \d\.\d{2}.* · seed$/,
    );
    const ledger = await resultItem('billing-ledger');
    await expect(ledger.locator('.score').textContent()).resolves.toMatch(/graph \d\.\d{2}/);
    await expect(ledger.locator('.hint').textContent()).resolves.toBe('1 hop');
    await expect(page().locator('#recall-summary').textContent()).resolves.toMatch(/results? for “ACID transactions”/);
    expect(viewOf(page().url())).toBe('recall=ACID transactions');
  });

  it('highlights every result’s activation path on the graph, then one result’s path on request', async () => {
    const acidLedger = await edgeBetween('need-acid', 'billing-ledger');
    const ledgerAudit = await edgeBetween('billing-ledger', 'audit-trail');
    const all = await highlighted();
    expect(all.edges).toContain(acidLedger.id);
    expect(all.nodes).toEqual(expect.arrayContaining([await memoryId('need-acid'), await memoryId('billing-ledger')]));

    const audit = await resultItem('audit-trail');
    await expect(audit.locator('.hint').textContent()).resolves.toBe('2 hops');
    await audit.locator('button[data-action=path]').click();
    const one = await highlighted();
    expect(one.edges.sort()).toEqual([acidLedger.id, ledgerAudit.id].sort());
    expect(one.nodes.sort()).toEqual(
      [await memoryId('need-acid'), await memoryId('billing-ledger'), await memoryId('audit-trail')].sort(),
    );
    await expect(audit.getAttribute('class')).resolves.toBe('showing');
    await page().screenshot({ path: `${RESULTS}/explorer-recall.png` });
  });

  it('Used strengthens the recorded path of that result, and the weight event names the recall', async () => {
    const before = await edgeBetween('need-acid', 'billing-ledger');
    const ledger = await resultItem('billing-ledger');
    await ledger.locator('button[data-signal=USED]').click();
    await expect.poll(() => ledger.getAttribute('data-feedback')).toBe('USED');
    await expect(status().textContent()).resolves.toMatch(
      /^Used: Billing needs a double-entry ledger, \d+ weights? changed$/,
    );
    const after = await edgeBetween('need-acid', 'billing-ledger');
    expect(after.weight).toBeGreaterThan(before.weight);
    const events = await app().gql<{ weightEvents: { reason: string | null; source: string }[] }>(
      'query ($edgeId: ID) { weightEvents(edgeId: $edgeId, limit: 1) { reason source } }',
      { edgeId: after.id },
    );
    expect(events.data?.weightEvents[0]?.source).toBe('CONSCIOUS');
    expect(events.data?.weightEvents[0]?.reason ?? '').toMatch(/recall/i);
    // The drawing follows the new weight.
    const drawnWeight = await page().evaluate(
      (id) => window.engramExplorer!.cy.getElementById(id).data('weight'),
      after.id,
    );
    expect(drawnWeight).toBeCloseTo(after.weight);
  });

  it('Not relevant weakens that result’s path and leaves the others alone', async () => {
    const ledgerAudit = await edgeBetween('billing-ledger', 'audit-trail');
    const acidLedger = await edgeBetween('need-acid', 'billing-ledger');
    const audit = await resultItem('audit-trail');
    await audit.locator('button[data-signal=NOT_RELEVANT]').click();
    await expect.poll(() => audit.getAttribute('data-feedback')).toBe('NOT_RELEVANT');
    expect((await edgeBetween('billing-ledger', 'audit-trail')).weight).toBeLessThan(ledgerAudit.weight);
    expect((await edgeBetween('need-acid', 'billing-ledger')).weight).toBeLessThan(acidLedger.weight);
    const jsonb = await edgeBetween('jsonb-enough', 'postgres-choice');
    expect(jsonb.weight).toBe(0.4);
  });

  it('restores the recall from a shared link, seeded from a memory', async () => {
    const shared = await openShared(`${base()}/explore#recall=ledger&seed=need-acid`);
    await shared.locator('#recall-results li').first().waitFor();
    await expect(shared.locator('#recall-input').inputValue()).resolves.toBe('ledger');
    const titles = await shared.locator('#recall-results li .title').allTextContents();
    expect(titles).toContain('We need ACID transactions');
    expect(titles).toContain('Billing needs a double-entry ledger');
    await shared.close();
  });

  it('starts from the selected memory when asked, with no words', async () => {
    await page().locator('#search-input').fill('Mongo');
    await page().locator('#search-form button[type=submit]').click();
    await page().locator('#search-results button', { hasText: 'Tried MongoDB for events' }).click();
    await page().locator('#detail-title', { hasText: 'Tried MongoDB for events' }).waitFor();
    await page().locator('#recall-input').fill('');
    await page().locator('#recall-from-selected').check();
    await page().locator('#recall-form button[type=submit]').click();
    await expect
      .poll(() => page().locator('#recall-summary').textContent())
      .toMatch(/results? for the selected memory$/);
    const first = page().locator('#recall-results li').first();
    await expect(first.locator('.title').textContent()).resolves.toBe('Tried MongoDB for events');
    await expect(first.locator('.score').textContent()).resolves.toMatch(/ · seed$/);
    // A seed has no path to call wrong: its buttons are Used and Not useful.
    await expect(
      first.locator('button[data-signal]').evaluateAll((buttons) => buttons.map((b) => b.textContent)),
    ).resolves.toEqual(['Used', 'Not useful']);
    const titles = await page().locator('#recall-results li .title').allTextContents();
    expect(titles).toContain('Mongo trial lost writes on failover');
    expect(viewOf(page().url())).toMatch(/recall=&seed=mongo-trial$/);
  });

  it('says what to do when there is nothing to recall from, and the page logged no errors', async () => {
    await page().locator('#recall-input').fill('');
    await page().locator('#recall-from-selected').uncheck();
    await page().locator('#recall-form button[type=submit]').click();
    await expect(status().textContent()).resolves.toMatch(/^Type words to recall/);
    expect(pageErrors).toEqual([]);
  });
});
