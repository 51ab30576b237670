import { z } from 'zod';
import { MemoryHistoryDocument } from '../../generated/graphql.js';
import { defined, limitInput, round } from '../shapes.js';
import { cursorInput, defineTool, PAGE_HINT } from '../tool.js';

const DEFAULT_LIMIT = 20;

const eventOutput = z.object({
  event_id: z.string().describe('Pass it to memory_revert to restore old_weight.'),
  at: z.string(),
  source: z.string().describe('AGENT, CONSCIOUS or MANUAL: who asked for the change.'),
  edge_id: z.string().nullable(),
  memory_id: z.string().nullable(),
  old_weight: z.number(),
  new_weight: z.number(),
  delta: z.number(),
  reason: z.string().nullable(),
  reverted_by: z.string().nullable().describe('The event that reverted this one; null if it stands.'),
});

export const memoryHistory = defineTool({
  name: 'memory_history',
  title: 'Weight history of an edge or a memory',
  description:
    'Weight history of an edge (edge_id) or a memory (memory_id), newest first: event_id, time, source, old and new weight, reason, reverted_by. Read it before memory_revert. An unknown edge_id has no events.',
  input: z
    .object({
      edge_id: z.string().optional().describe('The edge.'),
      memory_id: z.string().optional().describe('The memory (its own weight), by id or key.'),
      limit: limitInput(DEFAULT_LIMIT, 'events'),
      cursor: cursorInput,
    })
    .superRefine((input, ctx) => {
      if ((input.edge_id === undefined) !== (input.memory_id === undefined)) return;
      ctx.addIssue({ code: 'custom', path: ['edge_id'], message: 'give exactly one of edge_id and memory_id' });
    }),
  output: z.object({ count: z.number(), events: z.array(eventOutput) }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryHistoryDocument,
  fit: { list: ['weightEventsConnection', 'edges'], sizeArgument: 'limit', hint: PAGE_HINT },
  pages: ['weightEventsConnection'],
  argumentNames: { edgeId: 'edge_id', memoryId: 'memory_id', first: 'limit', after: 'cursor' },
  variables: (input) =>
    defined({ edgeId: input.edge_id, memoryId: input.memory_id, first: input.limit, after: input.cursor }),
  present: (data, input) => {
    const events = data.weightEventsConnection.edges.map(({ node: event }) => ({
      event_id: event.id,
      at: event.at,
      source: event.source,
      edge_id: event.edgeId,
      memory_id: event.memoryId,
      old_weight: event.old,
      new_weight: event.new,
      delta: event.delta,
      reason: event.reason,
      reverted_by: event.revertedBy,
    }));
    const subject = input.edge_id !== undefined ? `edge ${input.edge_id}` : `memory ${input.memory_id}`;
    const lines = events.map(
      (event) =>
        `- ${event.at} ${event.source} ${round(event.old_weight)} -> ${round(event.new_weight)} (event id ${event.event_id})${event.reason ? `: ${event.reason}` : ''}${event.reverted_by ? ` [reverted by ${event.reverted_by}]` : ''}`,
    );
    const text = events.length
      ? [`Weight history of ${subject}, newest first:`, ...lines].join('\n')
      : `No weight changes recorded for ${subject}.`;
    return { structured: { count: events.length, events }, text };
  },
});
