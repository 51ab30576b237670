import { badInput, conflict, type EngramError, notFound } from '../../domain/errors.js';
import type { WeightChangeRequest } from '../../domain/weights.js';

/**
 * The CONFLICT and NOT_FOUND answers every store gives, worded once, so a client sees the same
 * message whichever store is behind the gateway.
 */

export const KEY_TAKEN = 'That key is already taken in this workspace';
/** When the store cannot tell which unique value clashed. */
export const ID_OR_KEY_TAKEN = 'That id or key is already taken in this workspace';
export const ID_TAKEN = 'An item with that id already exists in this workspace';
export const EDGE_ID_TAKEN = 'That edge id is already taken in this workspace';
export const EVENT_ID_TAKEN = 'A weight event with that id already exists in this workspace';
export const BATCH_ITEM_TAKEN = 'A key or edge id in the batch is already taken by another item in this workspace';

/** A memory an edge needs (link's endpoints) is not in the workspace. */
export const missingMemory = (id: string): EngramError => notFound(`No memory "${id}" in this workspace`);

/** A weight change names an edge or memory that is not in the workspace. */
export const missingTarget = (target: WeightChangeRequest['target']): EngramError =>
  notFound(`No ${target.kind} with id "${target.id}" in this workspace`);

/** A memory the change refers to vanished between the check and the write. */
export const missingEndpoint = (): EngramError => notFound('A memory this change refers to does not exist');

/** An imported edge names a memory that is in neither the batch nor the store. */
export const missingImportEndpoint = (): EngramError =>
  notFound('An edge names a memory that is in neither the batch nor the store');

/** A revert whose event is missing or was reverted by someone else first. */
export const revertRefused = (eventId: string | null | undefined): EngramError =>
  conflict(`Weight event "${eventId}" is missing or was already reverted`);

/** A vector whose length is not the one the workspace's first vector fixed. */
export const vectorLengthRefused = (dims: number, got: number): EngramError =>
  badInput('embedding', `this workspace's vectors have ${dims} dimensions; got ${got}`);
