import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryCreateDocument } from '../../generated/graphql.js';
import { defined, label, memoryOutput, metadataInput, toMemory } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryCreate = defineTool({
  name: 'memory_create',
  title: 'Create a memory',
  description: [
    "Store a new memory (a fact, decision, hypothesis, experiment ...) in this workspace's graph. It persists at once and every client of the workspace sees it.",
    'Search first (memory_search) to avoid duplicates. To change an existing memory use memory_update; when the new memory replaces an outdated one, create it and then memory_link it to the old one with SUPERSEDES.',
    'Give a `key` (a short handle such as "postgres-choice") when you will refer to the memory again: every tool accepts the key wherever it takes an id.',
    'New memories start at weight 0.5. Fails with CONFLICT when the key is already taken in the workspace.',
  ].join(' '),
  input: z.object({
    title: z.string().describe(`Short title, 1-${LIMITS.titleChars} characters; matched first by memory_search.`),
    content: z.string().optional().describe(`Body text, at most ${LIMITS.contentChars} characters; searched.`),
    kind: z
      .string()
      .optional()
      .describe(`Free label such as fact, decision, hypothesis, experiment (1-${LIMITS.kindChars} characters).`),
    tags: z
      .array(z.string())
      .optional()
      .describe(
        `Free tags, at most ${LIMITS.tags}, each 1-${LIMITS.tagChars} characters; searched, and filterable in memory_search.`,
      ),
    key: z
      .string()
      .optional()
      .describe(
        'Optional handle, unique in the workspace: letters, digits and _ . : / -, starting with a letter or digit, at most 128 characters.',
      ),
    metadata: metadataInput.optional(),
  }),
  output: z.object({ memory: memoryOutput }),
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
    return { structured: { memory }, text: `Created memory ${label(memory)}.` };
  },
});
