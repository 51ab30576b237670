import { KNOWN_RELATION_TYPES } from '../domain/relations.js';
import { builder } from './builder.js';
import { DeletePayloadRef, EdgeRef, RelationTypeRef, UnlinkPayloadRef } from './refs.js';

RelationTypeRef.implement({
  description:
    'A known relation type. The vocabulary is open: any UPPER_SNAKE_CASE type may be used unless the server runs with strict types.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The type as stored on edges, e.g. CAUSED_BY.' }),
    description: t.exposeString('description', {
      description: 'What an edge of this type means, read from its source to its target.',
    }),
    inverse: t.exposeString('inverse', {
      nullable: true,
      description: 'How the relation reads from the target back to the source.',
    }),
  }),
});

DeletePayloadRef.implement({
  description: 'The outcome of deleteMemory.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Id of the memory deleted.' }),
    deleted: t.exposeBoolean('deleted', { description: 'True when this call removed the memory.' }),
    edgesRemoved: t.exposeInt('edgesRemoved', {
      description: 'How many edges touching the memory were removed with it.',
    }),
  }),
});

UnlinkPayloadRef.implement({
  description: 'The outcome of unlink.',
  fields: (t) => ({
    removed: t.int({
      description: 'How many edges were removed (0 when none matched).',
      resolve: (edges) => edges.length,
    }),
    edges: t.field({
      type: [EdgeRef],
      description: 'The removed edges as they were just before removal.',
      resolve: (edges) => edges,
    }),
  }),
});

builder.queryFields((t) => ({
  relationTypes: t.field({
    type: [RelationTypeRef],
    description: 'The known relation vocabulary, with what each type means and its inverse reading.',
    resolve: () => KNOWN_RELATION_TYPES,
  }),
}));
