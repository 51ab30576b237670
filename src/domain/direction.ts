import type { Direction } from './types.js';

/** The direction a walk from the other end takes: a bidirectional search's backward side. */
export const oppositeDirection = (direction: Direction): Direction =>
  direction === 'OUTGOING' ? 'INCOMING' : direction === 'INCOMING' ? 'OUTGOING' : 'BOTH';
