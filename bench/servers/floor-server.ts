/**
 * The floor of the end-to-end benchmarks: a bare graphql-yoga + Pothos server with one field
 * (`{ hello }`), no plugins, no store. Same HTTP stack and same load generator as Engram, so the
 * difference between the two is what Engram itself costs. Reports its port over IPC.
 */
import SchemaBuilder from '@pothos/core';
import { createYoga } from 'graphql-yoga';
import { serveForBenchmark } from './serve.js';

// No plugins. (Engram's builder imports the scope-auth plugin, whose option types apply program-wide;
// the option below satisfies them and does nothing without the plugin.)
const builder = new SchemaBuilder({ scopeAuth: { authScopes: () => ({}) } });
builder.queryType({ fields: (t) => ({ hello: t.string({ resolve: () => 'world' }) }) });
const yoga = createYoga({ schema: builder.toSchema(), logging: false });
serveForBenchmark(yoga);
