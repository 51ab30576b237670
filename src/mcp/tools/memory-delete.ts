import { z } from 'zod';
import { MemoryDeleteDocument } from '../../generated/graphql.js';
import { memoryRefInput } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryDelete = defineTool({
  name: 'memory_delete',
  title: 'Delete a memory and its edges',
  description: [
    'Permanently delete a memory (by id or key) together with every edge touching it; only its weight history is kept. Cannot be undone.',
    'Use it for memories created by mistake or that must be forgotten (e.g. the user asked). To mark a memory as outdated keep it and link its replacement with SUPERSEDES (memory_link);',
    'to say a recalled memory was unhelpful use memory_feedback. Returns how many edges were removed. NOT_FOUND when the memory does not exist, so repeating the call changes nothing.',
  ].join(' '),
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
