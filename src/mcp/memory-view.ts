import { z } from 'zod';
import type { EdgeFieldsFragment, MemoryFieldsFragment } from '../generated/graphql.js';
import { toMemory } from './shapes.js';

/*
 * How much of each memory a read tool returns. A research memory runs to kilobytes, so listing
 * twenty of them in full fills an agent's context; the summary carries enough to pick one and ask
 * for it (memory_get, or detail: full), and ids alone serve a call that only chains on.
 */

export type Detail = 'ids' | 'summary' | 'full';

/** Content characters in a summary: about two lines, enough to tell memories with similar titles apart. */
const SNIPPET_CHARS = 80;

export const detailInput = (fallback: Detail = 'summary') =>
  z.enum(['ids', 'summary', 'full']).default(fallback).describe('summary adds a snippet.');

export const currentOnlyInput = z.boolean().optional().describe('Leave out superseded memories.');

/** One schema for all three levels: fields beyond id and key are present as the level asks. */
export const memoryViewOutput = z.object({
  id: z.string(),
  key: z.string().nullable().describe('Human handle, usable wherever an id is.'),
  title: z.string().optional(),
  kind: z.string().nullable().optional(),
  snippet: z.string().optional().describe('summary: the start of the content, cut at a word.'),
  content: z.string().nullable().optional(),
  tags: z.array(z.string()).optional(),
  weight: z.number().optional().describe("The memory's own importance, 0..1."),
  metadata: z.unknown().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  superseded: z
    .literal(true)
    .optional()
    .describe('Present when a newer memory SUPERSEDES this one: prefer the newer version.'),
});
export type MemoryView = z.output<typeof memoryViewOutput>;

/** The content's start, cut at a word boundary when one is near, with an ellipsis. */
export function cutContent(content: string, chars: number): string {
  if (content.length <= chars) return content;
  const cut = content.slice(0, chars);
  const word = cut.lastIndexOf(' ');
  return `${word > chars * 0.8 ? cut.slice(0, word) : cut}…`;
}

/**
 * memory_create and memory_update answer the stored record, but the agent has just sent its
 * content: past this many characters it comes back cut, with content_length saying its size.
 */
const ECHOED_CONTENT_CHARS = 500;

export const contentLengthOutput = z
  .number()
  .optional()
  .describe('Set when the content is longer than shown (cut to keep the answer short): its full length.');

export function echoedMemory<T extends { content: string | null }>(memory: T): { memory: T; content_length?: number } {
  if (memory.content === null || memory.content.length <= ECHOED_CONTENT_CHARS) return { memory };
  return {
    memory: { ...memory, content: cutContent(memory.content, ECHOED_CONTENT_CHARS) },
    content_length: memory.content.length,
  };
}

/** The content's start, whitespace collapsed, cut at a word boundary with an ellipsis. */
function snippet(content: string | null): string {
  const flat = (content ?? '').replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const cut = flat.slice(0, SNIPPET_CHARS - 1);
  const word = cut.lastIndexOf(' ');
  return `${word > SNIPPET_CHARS / 2 ? cut.slice(0, word) : cut}…`;
}

export function toMemoryView(memory: MemoryFieldsFragment, detail: Detail): MemoryView {
  const superseded = memory.supersededBy.length > 0 ? { superseded: true as const } : {};
  if (detail === 'ids') return { id: memory.id, key: memory.key, ...superseded };
  if (detail === 'summary')
    return {
      id: memory.id,
      key: memory.key,
      title: memory.title,
      kind: memory.kind,
      snippet: snippet(memory.content),
      ...superseded,
    };
  return { ...toMemory(memory), ...superseded };
}

/** One line naming a memory with the ids a next call needs: `key "title" [kind] (id …)`. */
export function viewLine(memory: MemoryView): string {
  const title = memory.title === undefined ? '' : ` "${memory.title}"`;
  const kind = memory.kind ? ` [${memory.kind}]` : '';
  return `${memory.key ?? ''}${title}${kind} (id ${memory.id})${memory.superseded ? ' SUPERSEDED' : ''}`.trim();
}

/** An edge as read tools list it: what a next call needs, and every stored field at detail full. */
export const edgeViewOutput = z.object({
  id: z.string(),
  type: z.string(),
  weight: z.number().describe('Strength of the relation, 0..1.'),
  pruned: z.boolean().describe('At or below the prune threshold: hidden from walks, not deleted.'),
  source_id: z.string().optional(),
  target_id: z.string().optional(),
  metadata: z.unknown().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  last_confirmed_at: z.string().nullable().optional(),
});
export type EdgeView = z.output<typeof edgeViewOutput>;

export function toEdgeView(edge: EdgeFieldsFragment, detail: Detail): EdgeView {
  const brief = { id: edge.id, type: edge.type, weight: edge.weight, pruned: edge.pruned };
  if (detail !== 'full') return brief;
  return {
    ...brief,
    source_id: edge.from.id,
    target_id: edge.to.id,
    metadata: edge.metadata ?? null,
    created_at: edge.createdAt,
    updated_at: edge.updatedAt,
    last_confirmed_at: edge.lastConfirmedAt,
  };
}
