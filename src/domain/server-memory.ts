import { createHash } from 'node:crypto';
import { CONTROL_OR_LONE_SURROGATE, HANDLE, LIMITS } from './inputs.js';
import { normaliseRelationType, RELATION_TYPE_PATTERN } from './relations.js';

/*
 * The official MCP memory server's graph (entities with ordered observations, relations with free
 * text types) stored as Engram memories and edges, so weights, paths, recall and the explorer work
 * on the same data. docs/mcp.md ("The server-memory profile") states the mapping:
 *
 *   entity.name         -> key (the name itself when it is a valid key, else a readable slug
 *                          with a hash of the name) and title (the name)
 *   entity.entityType   -> kind
 *   entity.observations -> content, one observation per line, in order
 *   relation            -> edge from -[TYPE]-> to, TYPE the normalised UPPER_SNAKE form of
 *                          relationType; the text as given is kept in the edge's metadata
 *
 * Whatever those fields cannot hold exactly (a name with surrounding spaces, an observation with a
 * line break, a type of 65 characters ...) is kept as given under metadata.server_memory, so every
 * value the official server accepts reads back unchanged.
 */

export interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

export interface Relation {
  from: string;
  to: string;
  relationType: string;
}

/** The memory fields an entity is read from. */
export interface EntityMemory {
  id: string;
  key: string | null;
  title: string;
  kind: string | null;
  content: string | null;
  metadata?: unknown;
}

/** The edge fields a relation is read from; ends are named as entities. */
export interface RelationEdge {
  type: string;
  metadata?: unknown;
}

/** The metadata key this mapping owns on memories and edges; other keys are left alone. */
const SERVER_MEMORY_KEY = 'server_memory';

/** kind of a memory that has none, seen as an entity (entityType is required there). */
const DEFAULT_ENTITY_TYPE = 'memory';

const KEY_MAX = 128;
const SLUG_MAX = 80;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const own = (metadata: unknown): Record<string, unknown> => {
  const section = isRecord(metadata) ? metadata[SERVER_MEMORY_KEY] : undefined;
  return isRecord(section) ? section : {};
};

/** A label field (title, kind) holds the value only when the API would store it unchanged. */
const fitsLabel = (value: string, max: number): boolean =>
  value.length >= 1 && value.length <= max && value.trim() === value && !CONTROL_OR_LONE_SURROGATE.test(value);

/**
 * The key an entity name is stored under: the name itself when it is a valid key (most names an
 * agent picks, "John_Smith", "project-x"), else a readable slug plus 12 hex digits of the name's
 * SHA-256, so every name has exactly one key and a lookup by name needs no scan.
 */
export function keyForName(name: string): string {
  if (name.length <= KEY_MAX && HANDLE.test(name)) return name;
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.:/-]+/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, SLUG_MAX)
    .replace(/_+$/, '');
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12);
  return `${slug || 'entity'}:${hash}`;
}

/**
 * The edge type a relation text is stored under. Free text ("works at") becomes WORKS_AT; text
 * that still is not a valid type (another script, a leading digit, more than 64 characters) is
 * cut down to one, never refused: the text itself is what the relation reads back as.
 */
export function relationTypeFor(text: string): string {
  const normalised = normaliseRelationType(text);
  if (RELATION_TYPE_PATTERN.test(normalised)) return normalised;
  let type = normalised
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (type === '') return 'RELATED_TO';
  if (!/^[A-Z]/.test(type)) type = `R_${type}`;
  return type.slice(0, 64).replace(/_+$/, '');
}

/** Observations one per line; null when there are none, so an entity without any has no content. */
const contentOf = (observations: readonly string[]): string | null =>
  observations.length === 0 ? null : observations.join('\n');

const linesOf = (content: string | null): string[] => (content === null ? [] : content.split('\n'));

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((item, at) => item === b[at]);

/** What a memory stores for an entity: fields for importGraph, metadata merged into `previous`. */
export function memoryFieldsFor(
  entity: Entity,
  previousMetadata: unknown = null,
): { key: string; title: string; kind: string; content: string | null; metadata: Record<string, unknown> | null } {
  const kept: Record<string, unknown> = {};
  const title = fitsLabel(entity.name, LIMITS.titleChars) ? entity.name : fallbackLabel(entity.name, LIMITS.titleChars);
  if (title !== entity.name) kept.name = entity.name;
  const kind = fitsLabel(entity.entityType, LIMITS.kindChars)
    ? entity.entityType
    : fallbackLabel(entity.entityType, LIMITS.kindChars);
  if (kind !== entity.entityType) kept.entity_type = entity.entityType;
  const content = contentOf(entity.observations);
  if (!sameList(linesOf(content), entity.observations)) kept.observations = entity.observations;
  return { key: keyForName(entity.name), title, kind, content, metadata: withOwn(previousMetadata, kept) };
}

/** A label the API accepts for a value it would not store unchanged; the value itself goes to metadata. */
function fallbackLabel(value: string, max: number): string {
  const cleaned = value.replace(new RegExp(CONTROL_OR_LONE_SURROGATE.source, 'g'), ' ').trim().slice(0, max).trim();
  return cleaned === '' ? DEFAULT_ENTITY_TYPE : cleaned;
}

function withOwn(previous: unknown, section: Record<string, unknown>): Record<string, unknown> | null {
  const rest = isRecord(previous) ? { ...previous } : {};
  delete rest[SERVER_MEMORY_KEY];
  const merged = Object.keys(section).length > 0 ? { ...rest, [SERVER_MEMORY_KEY]: section } : rest;
  return Object.keys(merged).length > 0 ? merged : null;
}

/** The name a memory answers to as an entity: what it was created with, else its key, else its id. */
export function entityNameOf(memory: Pick<EntityMemory, 'id' | 'key' | 'title' | 'metadata'>): string {
  const kept = own(memory.metadata).name;
  if (typeof kept === 'string') return kept;
  if (memory.key !== null && keyForName(memory.title) === memory.key) return memory.title;
  return memory.key ?? memory.id;
}

/**
 * Any memory read as an entity, including those written by other Engram clients: their content's
 * lines are the observations. Kept observations are used only while the content still says the
 * same thing, so an edit made elsewhere (the explorer, memory_update) is what reads back.
 */
export function entityOf(memory: EntityMemory): Entity {
  const section = own(memory.metadata);
  const entityType =
    typeof section.entity_type === 'string' ? section.entity_type : (memory.kind ?? DEFAULT_ENTITY_TYPE);
  const kept = section.observations;
  const observations = isStringList(kept) && contentOf(kept) === memory.content ? [...kept] : linesOf(memory.content);
  return { name: entityNameOf(memory), entityType, observations };
}

/** The relation texts one edge stands for, in the order they were added; its type when none were kept. */
export function relationTextsOf(edge: RelationEdge): string[] {
  const kept = own(edge.metadata).relation_types;
  return isStringList(kept) && kept.length > 0 ? [...kept] : [edge.type];
}

/** Edge metadata holding `texts` (left out when the type alone says it), other keys kept. */
export function edgeMetadataFor(
  type: string,
  texts: readonly string[],
  previous: unknown = null,
): Record<string, unknown> | null {
  const section = sameList(texts, [type]) ? {} : { relation_types: [...texts] };
  return withOwn(previous, section);
}

/** content and metadata of a memory whose observations become `observations`; the rest of its metadata kept. */
export function observationFields(
  observations: readonly string[],
  previousMetadata: unknown,
): { content: string | null; metadata: Record<string, unknown> | null } {
  const { observations: _old, ...section } = own(previousMetadata);
  const content = contentOf(observations);
  if (!sameList(linesOf(content), observations)) section.observations = [...observations];
  return { content, metadata: withOwn(previousMetadata, section) };
}
