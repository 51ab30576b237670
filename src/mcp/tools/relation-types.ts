import { z } from 'zod';
import { RelationTypesDocument } from '../../generated/graphql.js';
import { defineTool } from '../tool.js';

export const relationTypes = defineTool({
  name: 'relation_types',
  title: 'List the relation vocabulary',
  description:
    'The relation vocabulary (CAUSED_BY, SUPERSEDES, CONTRADICTS, VALIDATES ...): what each means from source to target, and its inverse. Call it before memory_link when unsure; other types are stored with a warning (refused under strict types).',
  input: z.object({}),
  output: z.object({
    relation_types: z.array(z.object({ name: z.string(), description: z.string(), inverse: z.string().nullable() })),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: RelationTypesDocument,
  variables: () => ({}),
  present: (data) => ({
    structured: { relation_types: data.relationTypes },
    text: data.relationTypes
      .map((type) => `${type.name}: ${type.description}${type.inverse ? ` (inverse: ${type.inverse})` : ''}`)
      .join('\n'),
  }),
});
