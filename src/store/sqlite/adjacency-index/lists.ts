import type { Direction } from '../../../domain/types.js';

/** One direction of expansion: which lists to read. */
export enum Lists {
  Out = 1,
  In = 2,
  Both = 3,
}

export const listsFor = (direction: Direction): Lists =>
  direction === 'OUTGOING' ? Lists.Out : direction === 'INCOMING' ? Lists.In : Lists.Both;
