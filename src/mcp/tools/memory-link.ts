import { z } from 'zod';
import { MemoryLinkDocument } from '../../generated/graphql.js';
import {
  defined,
  EDGE_ALIASES,
  edgeLabel,
  edgeOutput,
  edgeTypeInput,
  memoryRefInput,
  metadataInput,
  reasonInput,
  toEdge,
} from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryLink = defineTool({
  name: 'memory_link',
  title: 'Link two memories (create or confirm a relation)',
  description: [
    'Create the typed edge source -[edge_type]-> target, or, when that exact edge exists, confirm it: last_confirmed_at is set, metadata is merged key by key (a key given again is overwritten),',
    'and a given weight replaces the current one as a recorded MANUAL change. Never duplicates an edge; created says which case happened.',
    'edge_type is UPPER_SNAKE_CASE (caused_by becomes CAUSED_BY); relation_types lists the known vocabulary, e.g. SUPERSEDES when the source replaces an outdated target, CONTRADICTS, CAUSED_BY, VALIDATES.',
    "New edges start at weight 0.5 (range 0-1); a reason given is kept in the new edge's weight history (memory_history).",
    'Use memory_strengthen to reinforce an existing edge by a step, memory_weaken when the user corrected a recalled relation, memory_unlink only to delete an edge that should never have existed.',
    'BAD_USER_INPUT when linking a memory to itself or for a malformed type (or an unknown one when the server runs with strict types); NOT_FOUND when either memory does not exist.',
  ].join(' '),
  input: z.object({
    source_id: memoryRefInput('The memory the edge starts at'),
    target_id: memoryRefInput('The memory the edge points to (must differ from source_id)'),
    edge_type: edgeTypeInput,
    weight: z
      .number()
      .optional()
      .meta({ minimum: 0, maximum: 1 })
      .describe('Weight 0-1. New edge: its starting weight (default 0.5). Existing edge: set to this value.'),
    metadata: metadataInput
      .optional()
      .describe('A JSON object stored with the edge (at most 4096 bytes), merged key by key into existing metadata.'),
    reason: reasonInput,
  }),
  output: z.object({
    created: z.boolean().describe('True when the edge is new, false when an existing edge was confirmed.'),
    edge: edgeOutput,
  }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryLinkDocument,
  aliases: EDGE_ALIASES,
  argumentNames: {
    'input.from': 'source_id',
    'input.to': 'target_id',
    'input.type': 'edge_type',
    'input.weight': 'weight',
    'input.metadata': 'metadata',
    'input.reason': 'reason',
  },
  variables: (input) => ({
    input: defined({
      from: input.source_id,
      to: input.target_id,
      type: input.edge_type,
      weight: input.weight,
      metadata: input.metadata,
      reason: input.reason,
    }),
  }),
  present: (data) => {
    const edge = toEdge(data.link);
    const created = edge.last_confirmed_at === null;
    return {
      structured: { created, edge },
      text: `${created ? 'Created' : 'Confirmed'} edge ${edgeLabel(edge)} (edge id ${edge.id}).`,
    };
  },
});
