import { z } from 'zod';
import { MemoryUpdateDocument } from '../../generated/graphql.js';
import { contentLengthOutput, echoedMemory } from '../memory-view.js';
import { defined, label, memoryOutput, memoryRefInput, metadataInput, toMemory } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryUpdate = defineTool({
  name: 'memory_update',
  title: "Update a memory's fields",
  description:
    'Change the given fields of a memory; omitted fields stay, null clears, tags and metadata are replaced whole. To keep the old version, memory_create a new one and link it with SUPERSEDES. CONFLICT when the key is taken.',
  input: z.object({
    memory_id: memoryRefInput('The memory to change'),
    title: z.string().optional().describe('Cannot be cleared.'),
    content: z.string().nullable().optional(),
    kind: z.string().nullable().optional(),
    tags: z.array(z.string()).optional().describe('Replace all tags; [] removes them.'),
    key: z.string().nullable().optional(),
    metadata: metadataInput.nullable().optional(),
  }),
  output: z.object({ memory: memoryOutput, content_length: contentLengthOutput }),
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  document: MemoryUpdateDocument,
  argumentNames: {
    id: 'memory_id',
    'input.title': 'title',
    'input.content': 'content',
    'input.kind': 'kind',
    'input.tags': 'tags',
    'input.key': 'key',
    'input.metadata': 'metadata',
  },
  variables: (input) => ({
    id: input.memory_id,
    input: defined({
      title: input.title,
      content: input.content,
      kind: input.kind,
      tags: input.tags,
      key: input.key,
      metadata: input.metadata,
    }),
  }),
  present: (data) => {
    const memory = toMemory(data.updateMemory);
    return { structured: echoedMemory(memory), text: `Updated memory ${label(memory)}.` };
  },
});
