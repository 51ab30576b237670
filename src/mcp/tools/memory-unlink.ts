import { z } from 'zod';
import { MemoryUnlinkDocument } from '../../generated/graphql.js';
import {
  defined,
  EDGE_ALIASES,
  edgeLabel,
  edgeOutput,
  edgeSelectorInput,
  requireOneEdgeSelector,
  toEdge,
} from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryUnlink = defineTool({
  name: 'memory_unlink',
  title: 'Remove an edge',
  description:
    'Permanently delete an edge (edge_id, or source_id, target_id and edge_type); removed 0 when nothing matched. Only for a relation wrong from the start; else memory_weaken.',
  input: z.object(edgeSelectorInput).superRefine(requireOneEdgeSelector),
  output: z.object({ removed: z.number(), edges: z.array(edgeOutput) }),
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  document: MemoryUnlinkDocument,
  aliases: EDGE_ALIASES,
  argumentNames: {
    'input.id': 'edge_id',
    'input.from': 'source_id',
    'input.to': 'target_id',
    'input.type': 'edge_type',
  },
  variables: (input) => ({
    input: defined({ id: input.edge_id, from: input.source_id, to: input.target_id, type: input.edge_type }),
  }),
  present: (data) => {
    const edges = data.unlink.edges.map(toEdge);
    const text = edges.length
      ? [
          `Removed ${edges.length} edge${edges.length === 1 ? '' : 's'}:`,
          ...edges.map((e) => `- ${edgeLabel(e)} (edge id ${e.id})`),
        ].join('\n')
      : 'No edge matched; nothing was removed.';
    return { structured: { removed: data.unlink.removed, edges }, text };
  },
});
