import type { AdjustmentSource } from './types.js';

/**
 * The weight policy lives here and only here. Stores receive a delta or a target value plus the
 * bounds, and apply them atomically; they never carry numbers of their own.
 */
export interface WeightPolicy {
  floor: number;
  ceiling: number;
  pruneThreshold: number;
  defaultEdgeWeight: number;
  defaultMemoryWeight: number;
  defaultWeakenAmount: number;
  /** Step used when a signal carries no explicit amount (feedback, strengthen without amount). */
  tierDelta: Record<AdjustmentSource, number>;
}

export const DEFAULT_WEIGHT_POLICY: WeightPolicy = {
  floor: 0,
  ceiling: 1,
  pruneThreshold: 0.05,
  defaultEdgeWeight: 0.5,
  defaultMemoryWeight: 0.5,
  defaultWeakenAmount: 0.3,
  tierDelta: { AGENT: 0.00001, CONSCIOUS: 0.01, MANUAL: 0.1 },
};

export const isPruned = (weight: number, policy: WeightPolicy): boolean => weight <= policy.pruneThreshold;

/** Weights and deltas keep 12 decimals: far finer than the AGENT tier, and free of float noise like 0.30000000000000004. */
export const roundWeight = (value: number): number => Math.round(value * 1e12) / 1e12;

export const clampWeight = (weight: number, policy: WeightPolicy): number =>
  Math.min(policy.ceiling, Math.max(policy.floor, weight));

/** How a store is asked to move one weight: by a signed delta, or to an absolute value. */
export type WeightOperation = { kind: 'delta'; delta: number } | { kind: 'set'; value: number };

export interface WeightChangeRequest {
  /** Id of the WeightEvent this change writes; chosen by the caller so a retried transaction reuses it. */
  eventId: string;
  target: { kind: 'edge'; id: string } | { kind: 'memory'; id: string };
  operation: WeightOperation;
  source: AdjustmentSource;
  reason: string | null;
  /** When set, the new event reverts this one and the store marks it `revertedBy`. */
  revertsEventId?: string;
  /**
   * The target was found by reading the graph, not named by the caller: when another writer has
   * removed it since, the change is skipped (no event) rather than failing the whole batch.
   */
  skipIfMissing?: boolean;
}

/** A MANUAL set of an edge weight: setEdgeWeight, and the event of a link (see linkWeightChange). */
export const manualEdgeSet = (
  eventId: string,
  edgeId: string,
  value: number,
  reason: string | null,
): WeightChangeRequest => ({
  eventId,
  target: { kind: 'edge', id: edgeId },
  operation: { kind: 'set', value },
  source: 'MANUAL',
  reason,
});

/**
 * The MANUAL change, with its event, that linkEdge writes in the link's own transaction; null for
 * none. A new edge given a reason gets an event that keeps its weight and carries the reason, so
 * its history tells why it was made. An existing edge linked again with a weight that differs from
 * its own gets that weight; otherwise (no weight, or the same) it is left alone, reason or not.
 */
export function linkWeightChange(
  link: { weight: number | null; eventId: string; reason: string | null },
  edge: { id: string; weight: number },
  created: boolean,
): WeightChangeRequest | null {
  if (created) return link.reason !== null ? manualEdgeSet(link.eventId, edge.id, edge.weight, link.reason) : null;
  return link.weight !== null && link.weight !== edge.weight
    ? manualEdgeSet(link.eventId, edge.id, link.weight, link.reason)
    : null;
}

/**
 * When a weight change happened, for its event: the writer's time, unless the target's newest
 * event is stamped later (a writer stamps its change before it waits for the target, so changes
 * can reach one target out of stamp order). Then the event takes that instant if its id sorts
 * after the newest's, else the next millisecond, so a target's history, newest first by
 * (at, id), ends with the change applied last and the weight it left.
 */
export function weightEventTime(now: string, eventId: string, newest: { at: string; id: string } | null): string {
  if (!newest || now > newest.at) return now;
  if (eventId > newest.id) return newest.at;
  return new Date(Date.parse(newest.at) + 1).toISOString();
}
