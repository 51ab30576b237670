import { z } from 'zod';
import { LIMITS, refList } from './inputs.js';

/** Input rules of the research views (evidence, contradictions, convergence, context, oscillation). */
const RESEARCH_VIEW_LIMITS = {
  minSupport: { min: 1, max: 10_000 },
  minFlips: { min: 1, max: 1_000 },
  window: { min: 1, max: 10_000 },
} as const;

const intBetween = (min: number, max: number) =>
  z.number().int().min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`);

export const minSupport = intBetween(RESEARCH_VIEW_LIMITS.minSupport.min, RESEARCH_VIEW_LIMITS.minSupport.max);
export const minFlips = intBetween(RESEARCH_VIEW_LIMITS.minFlips.min, RESEARCH_VIEW_LIMITS.minFlips.max);
export const eventWindow = intBetween(RESEARCH_VIEW_LIMITS.window.min, RESEARCH_VIEW_LIMITS.window.max);
/** A context bundle holds at most as many memories as any list (1..100). */
export const budget = intBetween(LIMITS.limit.min, LIMITS.limit.max);
export const seeds = refList.min(1, 'must hold at least one id');
