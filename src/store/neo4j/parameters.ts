import type { MemoryPatch, NewMemory } from '../../domain/types.js';
import type { Parameters } from './driver.js';
import { encodeJson } from './records.js';

/** A memory as statement parameters; `tagsText` feeds the full-text index. */
export function memoryParameters(memory: NewMemory): Parameters {
  return {
    id: memory.id,
    key: memory.key,
    title: memory.title,
    content: memory.content,
    kind: memory.kind,
    tags: [...memory.tags],
    tagsText: memory.tags.join(' '),
    weight: memory.weight,
    metadata: encodeJson(memory.metadata),
  };
}

/** Only the fields a patch names; a null value removes the property (SET +=). */
export function patchParameters(patch: MemoryPatch): Parameters {
  const changes: Parameters = {};
  if (patch.key !== undefined) changes.key = patch.key;
  if (patch.title !== undefined) changes.title = patch.title;
  if (patch.content !== undefined) changes.content = patch.content;
  if (patch.kind !== undefined) changes.kind = patch.kind;
  if (patch.tags !== undefined) {
    changes.tags = [...patch.tags];
    changes.tagsText = patch.tags.join(' ');
  }
  if (patch.metadata !== undefined) changes.metadata = encodeJson(patch.metadata);
  return changes;
}

/** A list parameter from a port argument (null means "any"). */
export const listOrNull = (values: readonly string[] | null): string[] | null => (values ? [...values] : null);
