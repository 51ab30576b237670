import { z } from 'zod';
import { MemoryDeleteDocument } from '../../generated/graphql.js';
import { memoryRefInput } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryDelete = defineTool({
  name: 'memory_delete',
  title: 'Delete a memory and its edges',
  description:
    'Permanently delete a memory and its edges (weight history stays). Only for mistakes or what must be forgotten: mark an outdated memory with SUPERSEDES (memory_link), an unhelpful one with memory_feedback.',
  input: z.object({ memory_id: memoryRefInput('The memory to delete') }),
  output: z.object({ id: z.string(), deleted: z.boolean(), edges_removed: z.number() }),
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  document: MemoryDeleteDocument,
  argumentNames: { id: 'memory_id' },
  variables: (input) => ({ id: input.memory_id }),
  present: (data) => {
    const result = data.deleteMemory;
    return {
      structured: { id: result.id, deleted: result.deleted, edges_removed: result.edgesRemoved },
      text: `Deleted memory ${result.id} and ${result.edgesRemoved} edge${result.edgesRemoved === 1 ? '' : 's'}.`,
    };
  },
});
