import type { FrontierStep } from '../../domain/types.js';
import type { FrontierExpansion } from '../port.js';

/**
 * An expandFrontier answer: `examined` is told only when more edges were read against the budget
 * than returned (memories FrontierQuery.maxTotalWeight left out), as the port describes it.
 */
export const frontierExpansion = (steps: FrontierStep[], truncated: boolean, examined: number): FrontierExpansion =>
  examined > steps.length ? { steps, truncated, examined } : { steps, truncated };
