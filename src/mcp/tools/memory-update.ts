import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryUpdateDocument } from '../../generated/graphql.js';
import { defined, label, memoryOutput, memoryRefInput, metadataInput, toMemory } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryUpdate = defineTool({
  name: 'memory_update',
  title: "Update a memory's fields",
  description: [
    'Change the given fields of an existing memory (by id or key). Fields left out keep their value; null clears content, kind, key or metadata.',
    'tags and metadata are replaced as a whole, not merged. The change persists at once and the old values are not kept.',
    'Use it to fix or complete a memory in place. When a fact changed and the old version should stay on record, create a new memory (memory_create) and memory_link it to the old one with SUPERSEDES instead.',
    'The weight is not set here: it moves through memory_feedback. NOT_FOUND when the memory does not exist, CONFLICT when the new key is taken.',
  ].join(' '),
  input: z.object({
    memory_id: memoryRefInput('The memory to change'),
    title: z.string().optional().describe(`New title, 1-${LIMITS.titleChars} characters (cannot be cleared).`),
    content: z
      .string()
      .nullable()
      .optional()
      .describe(`New body text (at most ${LIMITS.contentChars} characters); null clears it.`),
    kind: z.string().nullable().optional().describe('New kind label; null clears it.'),
    tags: z.array(z.string()).optional().describe('New tags, replacing all current ones ([] removes them).'),
    key: z.string().nullable().optional().describe('New handle (unique in the workspace); null removes it.'),
    metadata: metadataInput
      .nullable()
      .optional()
      .describe(`New metadata object replacing the old one (at most ${LIMITS.metadataBytes} bytes); null clears it.`),
  }),
  output: z.object({ memory: memoryOutput }),
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
    return { structured: { memory }, text: `Updated memory ${label(memory)}.` };
  },
});
