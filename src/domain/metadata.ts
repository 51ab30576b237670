import { badInput } from './errors.js';
import { LIMITS, metadataBytes } from './inputs.js';
import type { Json } from './types.js';

const isPlainObject = (value: Json | null): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Re-linking merges new metadata over the stored object key by key; a non-object replaces it, null keeps it. */
export function mergeMetadata(stored: Json | null, incoming: Json | null): Json | null {
  if (incoming === null) return stored;
  if (isPlainObject(stored) && isPlainObject(incoming)) return { ...stored, ...incoming };
  return incoming;
}

/**
 * The stored result obeys the same 4096-byte limit as one request's metadata: a merge that would
 * pass it is refused (BAD_USER_INPUT, nothing written). Stores call this inside their write
 * transaction, on the value they are about to write.
 */
export function checkMergedMetadata(merged: Json | null): Json | null {
  const bytes = merged === null ? 0 : metadataBytes(merged);
  if (bytes > LIMITS.metadataBytes) {
    throw badInput(
      'input.metadata',
      `the merged result (the stored metadata with this request's keys applied over it) would be ${bytes} bytes; it must be at most ${LIMITS.metadataBytes} bytes when serialized as JSON. Send fewer or shorter keys, or replace keys that are stored`,
    );
  }
  return merged;
}
