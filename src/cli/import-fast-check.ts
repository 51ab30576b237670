import type { GraphLineValue } from '../domain/graph-records.js';
import { CONTROL_OR_LONE_SURROGATE, HANDLE, LIMITS, LONE_SURROGATE } from '../domain/inputs.js';
import { RELATION_TYPE_PATTERN } from '../domain/relations.js';

/**
 * The import's fast path: accepts a parsed line when it already is what GraphLine would return
 * (every field within the API's rules, nothing for zod to trim or normalise, no metadata), so the
 * line is its own record. Anything else, valid or not, returns null and goes through GraphLine,
 * which alone words a refusal: the messages stay the schema's.
 */
export function asWellFormedRecord(json: unknown): GraphLineValue | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const line = json as Record<string, unknown>;
  if (line.record === 'memory') return isPlainMemory(line) ? (line as GraphLineValue) : null;
  if (line.record === 'edge') return isPlainEdge(line) ? (line as GraphLineValue) : null;
  return null;
}

const MEMORY_FIELDS = new Set(['record', 'id', 'key', 'title', 'content', 'kind', 'tags', 'weight', 'metadata']);
const EDGE_FIELDS = new Set(['record', 'from', 'to', 'type', 'weight', 'metadata']);

const absent = (value: unknown): boolean => value === null || value === undefined;
const onlyFields = (line: Record<string, unknown>, fields: Set<string>): boolean => {
  for (const name in line) if (!fields.has(name)) return false;
  return true;
};
const isHandle = (value: unknown): boolean => typeof value === 'string' && value.length <= 128 && HANDLE.test(value);
/** A label zod would keep as it is: not empty, not padded, within `max`, no control characters. */
const isLabel = (value: unknown, max: number): boolean =>
  typeof value === 'string' &&
  value.length > 0 &&
  value.length <= max &&
  value.trim() === value &&
  !CONTROL_OR_LONE_SURROGATE.test(value);
const isWeight = (value: unknown): boolean => absent(value) || (typeof value === 'number' && value >= 0 && value <= 1);

function isPlainMemory(line: Record<string, unknown>): boolean {
  const { id, key, title, content, kind, tags } = line;
  return (
    onlyFields(line, MEMORY_FIELDS) &&
    isHandle(id) &&
    (absent(key) || isHandle(key)) &&
    isLabel(title, LIMITS.titleChars) &&
    (absent(content) ||
      (typeof content === 'string' &&
        content.length <= LIMITS.contentChars &&
        !content.includes('\u0000') &&
        !LONE_SURROGATE.test(content))) &&
    (absent(kind) || isLabel(kind, LIMITS.kindChars)) &&
    (absent(tags) ||
      (Array.isArray(tags) && tags.length <= LIMITS.tags && tags.every((tag) => isLabel(tag, LIMITS.tagChars)))) &&
    isWeight(line.weight) &&
    absent(line.metadata)
  );
}

function isPlainEdge(line: Record<string, unknown>): boolean {
  const { from, to, type } = line;
  return (
    onlyFields(line, EDGE_FIELDS) &&
    isHandle(from) &&
    isHandle(to) &&
    from !== to &&
    typeof type === 'string' &&
    RELATION_TYPE_PATTERN.test(type) &&
    isWeight(line.weight) &&
    absent(line.metadata)
  );
}
