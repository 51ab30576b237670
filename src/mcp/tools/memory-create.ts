import { z } from 'zod';
import { MemoryCreateDocument } from '../../generated/graphql.js';
import { contentLengthOutput, echoedMemory } from '../memory-view.js';
import { defined, label, memoryOutput, metadataInput, toMemory } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryCreate = defineTool({
  name: 'memory_create',
  title: 'Create a memory',
  description:
    'Store a new memory (fact, decision, hypothesis ...). memory_search first to avoid duplicates; memory_update edits one. A key (e.g. postgres-choice) stands for its id; CONFLICT if taken. Replacing an outdated memory: memory_link it with SUPERSEDES.',
  input: z.object({
    title: z.string().describe('Short; searched first.'),
    content: z.string().optional().describe('Body text; searched.'),
    kind: z.string().optional().describe('fact, decision, hypothesis ...'),
    tags: z.array(z.string()).optional().describe('Searched and filterable.'),
    key: z.string().optional().describe('Unique handle, usable in place of the id.'),
    metadata: metadataInput.optional(),
  }),
  output: z.object({ memory: memoryOutput, content_length: contentLengthOutput }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryCreateDocument,
  argumentNames: {
    'input.title': 'title',
    'input.content': 'content',
    'input.kind': 'kind',
    'input.tags': 'tags',
    'input.key': 'key',
    'input.metadata': 'metadata',
  },
  variables: (input) => ({
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
    const memory = toMemory(data.createMemory);
    return { structured: echoedMemory(memory), text: `Created memory ${label(memory)}.` };
  },
});
