import { z } from 'zod';
import { MemoryGetDocument } from '../../generated/graphql.js';
import { cutContent, detailInput, memoryViewOutput, toMemoryView } from '../memory-view.js';
import { defined, label, limitInput, memoryIdNotFound, memoryRefInput, memoryRefOutput, round } from '../shapes.js';
import { defineTool } from '../tool.js';

const NEIGHBOR_LIMIT = 10;

/**
 * Content characters a default answer carries: a research memory runs to kilobytes, and the text
 * and the structured content each carry it, so in full it alone passes the 4,000-character output
 * budget. content_chars asks for more (up to the 65,536 a memory may hold).
 */
const CONTENT_CHARS = 1_000;

export const memoryGet = defineTool({
  name: 'memory_get',
  title: 'Get a memory and its neighbors',
  description:
    'Read one memory in full with its strongest neighbors and their edge ids. Use it when you know which memory you want; memory_search finds by words, memory_related filters neighbors.',
  input: z.object({
    memory_id: memoryRefInput('The memory'),
    neighbor_limit: limitInput(NEIGHBOR_LIMIT, 'neighbors'),
    detail: detailInput('full'),
    current_only: z.boolean().optional().describe('Answer its newest version.'),
    content_chars: z.number().int().min(1).max(65_536).optional().meta({ default: CONTENT_CHARS }),
  }),
  output: z.object({
    found: z.literal(true).describe('Always true: a missing memory is a NOT_FOUND error.'),
    memory: memoryViewOutput,
    asked_id: z.string().optional().describe('current_only: the superseded memory asked for.'),
    content_length: z.number().optional().describe('Set when the content was cut: its full length.'),
    neighbors: z.array(
      z.object({
        direction: z
          .enum(['outgoing', 'incoming'])
          .describe('outgoing: the edge goes from this memory to the neighbor.'),
        edge_id: z.string(),
        edge_type: z.string(),
        edge_weight: z.number(),
        memory: memoryRefOutput.extend({ kind: z.string().nullable() }),
      }),
    ),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryGetDocument,
  // With current_only the newest version's neighbours are the ones shown (when it has one).
  fit: {
    list: (input, data) =>
      input.current_only && (data as { memory?: { current?: unknown } }).memory?.current
        ? ['memory', 'current', 'neighbors']
        : ['memory', 'neighbors'],
    sizeArgument: 'neighbor_limit',
  },
  aliases: { limit: 'neighbor_limit' },
  argumentNames: { id: 'memory_id', limit: 'neighbor_limit' },
  variables: (input) =>
    defined({ id: input.memory_id, neighborLimit: input.neighbor_limit, currentOnly: input.current_only }),
  present: (data, input) => {
    if (!data.memory) return memoryIdNotFound(input.memory_id);
    const shown = input.current_only && data.memory.current ? data.memory.current : data.memory;
    const asked = shown.id === data.memory.id ? {} : { asked_id: data.memory.id };
    const full = toMemoryView(shown, input.detail);
    const limit = input.content_chars ?? CONTENT_CHARS;
    const long = typeof full.content === 'string' && full.content.length > limit ? full.content.length : null;
    const memory = long === null ? full : { ...full, content: cutContent(full.content as string, limit) };
    const neighbors = shown.neighbors.map((n) => ({
      direction: n.direction === 'INCOMING' ? ('incoming' as const) : ('outgoing' as const),
      edge_id: n.edge.id,
      edge_type: n.edge.type,
      edge_weight: n.edge.weight,
      memory: n.memory,
    }));
    const lines = [
      `${asked.asked_id ? `Newest version of ${data.memory.key ?? data.memory.id}: ` : ''}${label({ id: memory.id, key: memory.key, title: shown.title })}${memory.kind ? ` [${memory.kind}]` : ''}${memory.weight === undefined ? '' : `, weight ${round(memory.weight)}`}${memory.tags?.length ? `, tags: ${memory.tags.join(', ')}` : ''}${memory.superseded ? ' (SUPERSEDED by a newer memory)' : ''}`,
      ...(memory.content ? [memory.content] : memory.snippet ? [memory.snippet] : []),
      ...(long === null
        ? []
        : [`(content cut at ${limit} of ${long} characters; pass content_chars: ${long} for all of it)`]),
      ...(neighbors.length
        ? [
            'Neighbors:',
            ...neighbors.map(
              (n) =>
                `- ${n.direction === 'outgoing' ? `-[${n.edge_type}]->` : `<-[${n.edge_type}]-`} ${label(n.memory)}, weight ${round(n.edge_weight)}, edge ${n.edge_id}`,
            ),
          ]
        : ['No neighbors.']),
    ];
    const cut = long === null ? {} : { content_length: long };
    return { structured: { found: true as const, memory, ...asked, ...cut, neighbors }, text: lines.join('\n') };
  },
});
