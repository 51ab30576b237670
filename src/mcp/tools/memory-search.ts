import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemorySearchDocument } from '../../generated/graphql.js';
import { currentOnlyInput, detailInput, memoryViewOutput, toMemoryView, viewLine } from '../memory-view.js';
import { defined, limitInput } from '../shapes.js';
import { cursorInput, defineTool, PAGE_HINT } from '../tool.js';

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memories (full text)',
  description:
    'Full-text search over title, tags and content, best first; the last word also matches as a prefix. Use it before answering and before memory_create; then memory_get / memory_related, and memory_feedback.',
  input: z.object({
    query: z
      .string()
      .describe(`Words to look for (at most ${LIMITS.searchChars} characters); empty lists kinds/tags newest first.`),
    kinds: z.array(z.string()).optional().describe('Only memories of these kinds.'),
    tags: z.array(z.string()).optional().describe('Only memories with one of these tags.'),
    limit: limitInput(20),
    cursor: cursorInput,
    detail: detailInput(),
    current_only: currentOnlyInput,
  }),
  output: z.object({ count: z.number(), results: z.array(memoryViewOutput) }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemorySearchDocument,
  fit: { list: ['searchMemoriesConnection', 'edges'], sizeArgument: 'limit', hint: PAGE_HINT },
  pages: ['searchMemoriesConnection'],
  argumentNames: { first: 'limit', after: 'cursor' },
  variables: (input) =>
    defined({
      query: input.query,
      kinds: input.kinds,
      tags: input.tags,
      first: input.limit,
      after: input.cursor,
      currentOnly: input.current_only,
    }),
  present: (data, input) => {
    const results = data.searchMemoriesConnection.edges.map(({ node }) => toMemoryView(node, input.detail));
    const text = results.length
      ? [
          `${results.length} memor${results.length === 1 ? 'y' : 'ies'} match "${input.query}", best first:`,
          ...results.map((m, i) => `${i + 1}. ${viewLine(m)}`),
        ].join('\n')
      : `No memory matches "${input.query}".`;
    return { structured: { count: results.length, results }, text };
  },
});
