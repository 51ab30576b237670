import type { NewMemory } from '../../src/domain/types.js';

/** A memory with only an id, titled by it: what tests that seed a store straight through the port need. */
export const plainMemory = (id: string, weight = 0.5): NewMemory => ({
  id,
  key: null,
  title: id,
  content: null,
  kind: null,
  tags: [],
  weight,
  metadata: null,
});
