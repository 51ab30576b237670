import type { EdgeRecord, MemoryRecord, WeightEventRecord } from '../../domain/types.js';
import type { WeightChangeRequest } from '../../domain/weights.js';
import type { AppliedWeightChange } from '../port.js';

/**
 * Bounds for link's MANUAL weight: the domain validated the value against the policy already.
 * Finite, not ±Infinity: Cypher parameters carry them as they are, and SQLite clamps alike.
 */
export const UNBOUNDED = { floor: -Number.MAX_VALUE, ceiling: Number.MAX_VALUE };

/** A change's answer from its WeightEvent and its target as the change left it (null when unread). */
export function appliedWeightChange(
  change: WeightChangeRequest,
  event: WeightEventRecord,
  target: EdgeRecord | MemoryRecord | null,
): AppliedWeightChange {
  return {
    previousWeight: event.old,
    newWeight: event.new,
    event,
    edge: change.target.kind === 'edge' ? (target as EdgeRecord | null) : null,
    memory: change.target.kind === 'memory' ? (target as MemoryRecord | null) : null,
  };
}
