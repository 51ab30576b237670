import { z } from 'zod';
import { nestedDeeperThan } from './json-depth.js';
import { normaliseRelationType, RELATION_TYPE_PATTERN } from './relations.js';

/** Limits of the contract (API.md, "Rules every implementation keeps"). */
export const LIMITS = {
  maxHops: { min: 1, max: 10 },
  maxDepth: { min: 1, max: 5 },
  limit: { min: 1, max: 100 },
  metadataBytes: 4096,
  /** Deepest nesting of objects and arrays in a metadata value (a scalar at the top is depth 0). */
  metadataDepth: 32,
  titleChars: 500,
  contentChars: 65_536,
  kindChars: 64,
  tagChars: 64,
  tags: 64,
  reasonChars: 1000,
  refChars: 256,
  searchChars: 500,
  typesPerFilter: 64,
  idsPerBatch: 100,
  viaEdges: 100,
} as const;

/** Control characters (NUL among them) and lone surrogates have no business in identifiers or labels. */
export const CONTROL_OR_LONE_SURROGATE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
  /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const label = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(
      (value) => !CONTROL_OR_LONE_SURROGATE.test(value),
      'must not contain control characters or lone surrogates',
    );

/** Free text (content, reasons) may hold newlines and tabs, but not NUL or broken UTF-16. */
const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine(
      (value) => !value.includes('\u0000') && !LONE_SURROGATE.test(value),
      'must not contain NUL or lone surrogates',
    );

/** A memory named by id or key. Anything a memory could be named by passes; the store decides if it exists. */
export const memoryRef = label(LIMITS.refChars);

/** ids and keys a client chooses: a conservative alphabet, so they read well in URLs, logs and Cypher params. */
export const HANDLE = /^[A-Za-z0-9][A-Za-z0-9_.:/-]*$/;
export const memoryId = z
  .string()
  .max(128, 'must be at most 128 characters')
  .regex(HANDLE, 'must start with a letter or digit and use only letters, digits and _ . : / -');
export const memoryKey = memoryId;

export const relationType = z
  .string()
  .max(128, 'must be at most 128 characters')
  .transform(normaliseRelationType)
  .pipe(
    z
      .string()
      .regex(
        RELATION_TYPE_PATTERN,
        'must be UPPER_SNAKE_CASE: a letter, then letters, digits or _, at most 64 characters',
      ),
  );

export const relationTypes = z
  .array(relationType)
  .max(LIMITS.typesPerFilter, `must name at most ${LIMITS.typesPerFilter} types`);

export const weight = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
export const minWeight = weight;
export const amount = z.number().gt(0, 'must be greater than 0').max(1, 'must be at most 1');
export const maxHops = z
  .number()
  .int()
  .min(LIMITS.maxHops.min, 'must be between 1 and 10')
  .max(LIMITS.maxHops.max, 'must be between 1 and 10');
export const maxDepth = z
  .number()
  .int()
  .min(LIMITS.maxDepth.min, 'must be between 1 and 5')
  .max(LIMITS.maxDepth.max, 'must be between 1 and 5');
export const limit = z
  .number()
  .int()
  .min(LIMITS.limit.min, 'must be between 1 and 100')
  .max(LIMITS.limit.max, 'must be between 1 and 100');
/** `first` of a connection field: the same bounds as `limit`. */
export const pageSize = limit;

export const title = label(LIMITS.titleChars);
export const content = text(LIMITS.contentChars);
export const kind = label(LIMITS.kindChars);
export const tags = z.array(label(LIMITS.tagChars)).max(LIMITS.tags, `must hold at most ${LIMITS.tags} tags`);
export const reason = text(LIMITS.reasonChars);
/** May be empty: searchMemories then lists by kinds or tags, and asks for one of them itself. */
export const searchText = z.string().max(LIMITS.searchChars, `must be at most ${LIMITS.searchChars} characters`);
/** recall has no listing mode: its words are what seeds it, so blank text is refused. */
export const recallText = searchText.refine((value) => value.trim().length > 0, 'must not be empty');
export const refList = z.array(memoryRef).max(LIMITS.idsPerBatch, `must hold at most ${LIMITS.idsPerBatch} ids`);
export const edgeIdList = z.array(memoryRef).max(LIMITS.viaEdges, `must hold at most ${LIMITS.viaEdges} edge ids`);

/** Serialized size in UTF-8 bytes, the measure of LIMITS.metadataBytes. */
export const metadataBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * Metadata is capped by its nesting depth, checked first and without recursion (serializing a
 * value nested thousands of levels would overflow the stack), then by its serialized size in
 * UTF-8 bytes, not characters: emoji count as 4.
 */
export const metadata = z
  .unknown()
  .refine((value) => !nestedDeeperThan(value, LIMITS.metadataDepth), {
    message: `must be nested at most ${LIMITS.metadataDepth} levels deep (objects and arrays)`,
    abort: true,
  })
  .refine(
    (value) => value === null || value === undefined || metadataBytes(value) <= LIMITS.metadataBytes,
    `must be at most ${LIMITS.metadataBytes} bytes when serialized as JSON`,
  );

export const workspaceName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be 1-64 letters, digits, _ . - (starting with a letter or digit)');
