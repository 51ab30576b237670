import { describe, expect, it } from 'vitest';
import type { AdjustmentSource } from '../../../src/domain/types.js';
import { chain } from '../../fixtures/graphs.js';
import type { ContractContext } from '../contract-kit.js';
import { BOUNDS, delta, edgeChange, eventFilter, expectCode, OTHER, T1, WS } from '../contract-kit.js';

/** The GraphStore contract, ping, close and workspace isolation. */
export function lifecycleCases(t: ContractContext): void {
  const { seed, weightOf } = t;

  describe('ping and close', () => {
    it('describes itself with a non-empty label', () => {
      expect(typeof t.store.description).toBe('string');
      expect(t.store.description.length).toBeGreaterThan(0);
    });

    it('answers ping while open', async () => {
      await expect(t.store.ping()).resolves.toBeUndefined();
    });

    it('closes idempotently', async () => {
      await t.store.close();
      await expect(t.store.close()).resolves.toBeUndefined();
    });

    it('rejects ping with UNAVAILABLE once closed', async () => {
      await t.store.close();
      await expectCode(t.store.ping(), 'UNAVAILABLE');
    });
  });

  describe('workspace isolation', () => {
    it('keeps two workspaces with the same fixture fully apart', async () => {
      const here = await seed(chain, WS);
      const there = await seed(chain, OTHER);
      await t.store.applyWeightChanges(OTHER, [edgeChange(there.edge('a', 'b').id, delta(0.2))], BOUNDS, T1);
      expect((await t.store.getMemories(WS, ['chain-a']))[0]?.id).toBe(here.id('a'));
      expect((await t.store.getMemories(OTHER, ['chain-a']))[0]?.id).toBe(there.id('a'));
      expect(await weightOf(WS, here.edge('a', 'b').id)).toBe(0.5);
      expect(await t.store.listWeightEvents(WS, eventFilter({ source: 'CONSCIOUS' }))).toEqual([]);
      const sources: AdjustmentSource[] = ['AGENT', 'CONSCIOUS', 'MANUAL'];
      for (const source of sources) {
        const events = await t.store.listWeightEvents(WS, eventFilter({ source }));
        expect(events.every((event) => event.edgeId !== there.edge('a', 'b').id)).toBe(true);
      }
    });
  });
}
