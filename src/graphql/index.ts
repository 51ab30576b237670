import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import './enums.js';
import './memory.js';
import './edge.js';
import './walk-types.js';
import './weight.js';
import './misc-types.js';
import './inputs.js';
import './query.js';
import './mutation.js';
import './intelligence.js';
import './memory-intelligence.js';
import './query-intelligence.js';
import './mutation-intelligence.js';
import './import.js';

/** The executable schema; types are registered by importing their files above. */
export const schema: GraphQLSchema = builder.toSchema({ sortSchema: false });

/** Sorted for printing, so the checked-in file changes only when the API does. */
export const printableSchema = (): GraphQLSchema => lexicographicSortSchema(schema);
