import type { Json } from './types.js';

const isPlainObject = (value: Json | null): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Re-linking merges new metadata over the stored object key by key; a non-object replaces it, null keeps it. */
export function mergeMetadata(stored: Json | null, incoming: Json | null): Json | null {
  if (incoming === null) return stored;
  if (isPlainObject(stored) && isPlainObject(incoming)) return { ...stored, ...incoming };
  return incoming;
}
