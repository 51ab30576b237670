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
  unknownTypeWarning,
  warningsOutput,
} from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryLink = defineTool({
  name: 'memory_link',
  title: 'Link two memories',
  description:
    'Create the edge source_id -[edge_type]-> target_id, or confirm it (metadata merged, weight applied); created says which. A type not in relation_types is stored with a warning. memory_weaken moves an edge.',
  input: z.object({
    source_id: memoryRefInput('The memory the edge starts at'),
    target_id: memoryRefInput('The memory the edge points to'),
    edge_type: edgeTypeInput,
    weight: z
      .number()
      .optional()
      .meta({ minimum: 0, maximum: 1 })
      .describe('New edge: its start (default 0.5); existing: its new weight.'),
    metadata: metadataInput.optional().describe('JSON object (<= 4096 bytes), merged.'),
    reason: reasonInput,
  }),
  output: z.object({
    created: z.boolean().describe('True when the edge is new, false when an existing edge was confirmed.'),
    edge: edgeOutput,
    warnings: warningsOutput,
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
    const warning = unknownTypeWarning(edge.type);
    return {
      structured: { created, edge, ...(warning ? { warnings: [warning] } : {}) },
      text: `${created ? 'Created' : 'Confirmed'} edge ${edgeLabel(edge)} (edge id ${edge.id}).${warning ? `\nWarning: ${warning}` : ''}`,
    };
  },
});
