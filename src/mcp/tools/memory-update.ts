import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryUpdateDocument } from '../../generated/graphql.js';
import { defined, label, memoryOutput, memoryRefInput, metadataInput, toMemory } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryUpdate = defineTool({
  name: 'memory_update',
  title: "Update a memory's fields",
  description:
    'Change the given fields of a memory; omitted fields stay, null clears, tags and metadata are replaced whole. The old values are not kept: when the old version should stay on record, memory_create the new one and memory_link it with SUPERSEDES instead. The weight moves only through memory_feedback. NOT_FOUND when the memory does not exist, CONFLICT when the new key is taken.',
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
