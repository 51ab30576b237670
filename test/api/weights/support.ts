import { expect } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import { DEFAULT_WEIGHT_POLICY, type WeightChangeRequest } from '../../../src/domain/weights.js';
import type { TestApp } from '../../helpers/app.js';
import { countRows, rowsAdded, useTestApp } from '../support.js';

export const BOUNDS = { floor: DEFAULT_WEIGHT_POLICY.floor, ceiling: DEFAULT_WEIGHT_POLICY.ceiling };

/** A MANUAL set of one edge weight, for seeding many events in one transaction through the port. */
export const setWeight = (edgeId: string, value: number): WeightChangeRequest => ({
  eventId: newId(),
  target: { kind: 'edge', id: edgeId },
  operation: { kind: 'set', value },
  source: 'MANUAL',
  reason: null,
});

export const CHANGE_FIELDS =
  'previousWeight newWeight pruned edge { id weight pruned } memory { id weight } event { id source old new delta reason revertedBy edge { id } memory { id } }';

/** A fresh app per test, with the weight helpers bound to it. */
export function useWeightApp(): {
  api: () => TestApp;
  change: (mutation: string, variables?: Record<string, unknown>, events?: number) => Promise<Record<string, any>>;
  edgeWeight: (id: string) => Promise<number>;
  memoryWeight: (ref: string) => Promise<number>;
} {
  const api = useTestApp();

  /** Runs a weight mutation and checks it wrote exactly `events` weight events and nothing else. */
  async function change(mutation: string, variables?: Record<string, unknown>, events = 1) {
    const before = countRows(api());
    const response = await api().gql(mutation, variables);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(rowsAdded(before, countRows(api()))).toEqual({ memories: 0, edges: 0, weight_events: events });
    return response.data as Record<string, any>;
  }

  const edgeWeight = async (id: string): Promise<number> =>
    (await api().gql('query($id: ID!) { edge(id: $id) { weight } }', { id })).data?.edge.weight;

  const memoryWeight = async (ref: string): Promise<number> =>
    (await api().gql('query($id: ID) { memory(id: $id) { weight } }', { id: ref })).data?.memory.weight;

  return { api, change, edgeWeight, memoryWeight };
}
