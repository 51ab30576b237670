import { type GraphQLSchema, lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './root.js';
import './scalars.js';
import './enums.js';
import './memory.js';
import './edge.js';
import './walk-types.js';
import './weight.js';
import './misc-types.js';
import './inputs.js';
import './research-views/types.js';
import './research-views/memory-fields.js';
import './research-views/query-fields.js';
import './research-views/mutation-fields.js';
import './import.js';
import './recall-types.js';
import './recall.js';
import './connections.js';
import './search-connection.js';
import './neighbors-connection.js';

/** The executable schema; types are registered by importing their files above. */
export const schema: GraphQLSchema = builder.toSchema({ sortSchema: false });

/** Sorted for printing, so the checked-in file changes only when the API does. */
export const printableSchema = (): GraphQLSchema => lexicographicSortSchema(schema);
