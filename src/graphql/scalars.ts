import { GraphQLError, type ValueNode } from 'graphql';
import { GraphQLDateTime, GraphQLJSON } from 'graphql-scalars';
import { LIMITS } from '../domain/inputs.js';
import { nestedDeeperThan } from '../domain/json-depth.js';
import { builder } from './builder.js';

/** graphql-scalars' RFC 3339 DateTime, with the description the API has always printed. */
export const DateTime = builder.addScalarType('DateTime', GraphQLDateTime, {
  description: 'A point in time as an ISO-8601 string in UTC, e.g. "2026-11-22T06:45:56.000Z".',
});

const tooDeep = () =>
  new GraphQLError(`JSON values may be nested at most ${LIMITS.metadataDepth} levels deep (objects and arrays)`, {
    extensions: { code: 'BAD_USER_INPUT' },
  });

/** Refuses a value nested deeper than the limit, checked without recursion: nothing after this walks deeper. */
const shallow = (value: unknown) => {
  if (nestedDeeperThan(value, LIMITS.metadataDepth)) throw tooDeep();
  return value;
};

/**
 * graphql-scalars' JSON, bounded in depth at the edge whether the value comes as a variable or a
 * literal. Its @specifiedBy link is dropped: the printed schema (the API contract) stays as it was.
 */
export const JSONScalar = builder.addScalarType('JSON', GraphQLJSON, {
  specifiedByURL: undefined,
  description: `Any JSON value: object, array, string, number, boolean or null; objects and arrays nested at most ${LIMITS.metadataDepth} levels deep.`,
  parseValue: (value) => shallow(GraphQLJSON.parseValue(value)),
  parseLiteral: (node: ValueNode, variables) => shallow(GraphQLJSON.parseLiteral(node, variables)),
});
