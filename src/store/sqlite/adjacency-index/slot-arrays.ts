/** The weight of a deleted edge's slot: it fails every `weight > threshold` test. */
export const TOMBSTONE = Number.NEGATIVE_INFINITY;
export const EMPTY: readonly number[] = [];

/** Shared by every index that has nothing to put in an array: writing past the end of a typed array does nothing. */
export const NO_INT32 = new Int32Array(0);
export const NO_UINT32 = new Uint32Array(0);
export const NO_UINT16 = new Uint16Array(0);
export const NO_UINT8 = new Uint8Array(0);
export const NO_FLOAT64 = new Float64Array(0);
export const ZERO_OFFSETS = new Int32Array(1);

/**
 * Grows by a quarter, not double: slot arrays of a 10M-edge index hold ~340 MB, and a rebuild
 * comes before the overlay reaches a fifth of the base anyway.
 */
export function grow<T extends Int32Array | Uint32Array | Float64Array | Uint16Array | Uint8Array>(
  array: T,
  size: number,
): T {
  if (array.length >= size) return array;
  const bigger = new (array.constructor as new (length: number) => T)(
    Math.max(size, array.length + (array.length >> 2), 16),
  );
  bigger.set(array);
  return bigger;
}

/** A rowid as it fits an Int32Array slot: 0 (unknown, read by id) past 2^31 - 1. */
export const asRid = (rid: number): number => (rid > 0 && rid <= 0x7fffffff ? rid : 0);
