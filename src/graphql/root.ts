import { builder } from './builder.js';

/**
 * The two root types with what applies to all their fields. Each field is defined beside its type
 * (memory.ts, edge.ts, weight.ts ...) with builder.queryFields / builder.mutationFields.
 */
builder.queryType({
  description:
    'Reads. Every read acts inside the workspace of the request (x-engram-workspace header, default "default").',
});

builder.mutationType({
  description: 'Writes. Each mutation is one transaction: it changes everything it says, or nothing.',
  // Every Mutation field, wherever it is defined, needs the write scope, so a read-only API key gets
  // FORBIDDEN before any resolver runs.
  authScopes: { write: true },
});
