import { z } from 'zod';
import * as rules from './inputs.js';
import type { EdgeRecord, MemoryRecord } from './types.js';

/**
 * Graph records: the NDJSON interchange format of `engram import` / `engram export`, one JSON
 * object per line, memories and edges (the `importGraph` mutation takes the same fields). Field rules are the API's (domain/inputs.ts); fields marked
 * optional may be left out. Unknown fields are refused, so a typo cannot silently drop data.
 *
 *   {"record":"memory","id":"m1","key":null,"title":"...","content":"...","kind":"fact","tags":[],"weight":0.5,"metadata":null}
 *   {"record":"edge","from":"m1","to":"m2","type":"CAUSED_BY","weight":0.5,"metadata":null}
 *
 * A memory's `id` is required: it is what makes re-importing a file idempotent. An edge is
 * identified by (from, to, type); both ends are memory ids.
 */
const MemoryLine = z.strictObject({
  record: z.literal('memory'),
  id: rules.memoryId,
  key: rules.memoryKey.nullish(),
  title: rules.title,
  content: rules.content.nullish(),
  kind: rules.kind.nullish(),
  tags: rules.tags.nullish(),
  weight: rules.weight.nullish(),
  metadata: rules.metadata.nullish(),
});

const EdgeLine = z
  .strictObject({
    record: z.literal('edge'),
    from: rules.memoryId,
    to: rules.memoryId,
    type: rules.relationType,
    weight: rules.weight.nullish(),
    metadata: rules.metadata.nullish(),
  })
  .refine((edge) => edge.from !== edge.to, { message: 'a memory cannot be linked to itself', path: ['to'] });

export const GraphLine = z.discriminatedUnion('record', [MemoryLine, EdgeLine], {
  error: (issue) => (issue.code === 'invalid_union' ? 'must be "memory" or "edge"' : undefined),
});

export type MemoryLineValue = z.infer<typeof MemoryLine>;
export type EdgeLineValue = z.infer<typeof EdgeLine>;
export type GraphLineValue = z.infer<typeof GraphLine>;

/** One line's problems, as "field: rule" phrases. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.filter((segment) => typeof segment !== 'number').join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export const memoryLine = (memory: MemoryRecord): string =>
  JSON.stringify({
    record: 'memory',
    id: memory.id,
    key: memory.key,
    title: memory.title,
    content: memory.content,
    kind: memory.kind,
    tags: memory.tags,
    weight: memory.weight,
    metadata: memory.metadata,
  });

export const edgeLine = (edge: EdgeRecord): string =>
  JSON.stringify({
    record: 'edge',
    from: edge.fromId,
    to: edge.toId,
    type: edge.type,
    weight: edge.weight,
    metadata: edge.metadata,
  });
