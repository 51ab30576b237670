import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { nestedDeeperThan } from '../domain/json-depth.js';
import { LIMITS } from '../domain/inputs.js';
import { builder } from './builder.js';

export const DateTime = builder.scalarType('DateTime', {
  description: 'A point in time as an ISO-8601 string in UTC, e.g. "2026-11-22T06:45:56.000Z".',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
      throw new GraphQLError('DateTime must be an ISO-8601 string', { extensions: { code: 'BAD_USER_INPUT' } });
    }
    return new Date(value).toISOString();
  },
});

const tooDeep = () =>
  new GraphQLError(`JSON values may be nested at most ${LIMITS.metadataDepth} levels deep (objects and arrays)`, {
    extensions: { code: 'BAD_USER_INPUT' },
  });

function literalToJson(node: ValueNode, variables: Record<string, unknown> | null | undefined, depth = 0): unknown {
  if ((node.kind === Kind.LIST || node.kind === Kind.OBJECT) && depth >= LIMITS.metadataDepth) throw tooDeep();
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((value) => literalToJson(value, variables, depth + 1));
    case Kind.OBJECT:
      return Object.fromEntries(
        node.fields.map((field) => [field.name.value, literalToJson(field.value, variables, depth + 1)]),
      );
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    case Kind.ENUM:
      return node.value;
  }
}

export const JSONScalar = builder.scalarType('JSON', {
  description: `Any JSON value: object, array, string, number, boolean or null; objects and arrays nested at most ${LIMITS.metadataDepth} levels deep.`,
  serialize: (value) => value,
  // Checked here, at the edge, without recursion: nothing after this walks a value deeper than the limit.
  parseValue: (value) => {
    if (nestedDeeperThan(value, LIMITS.metadataDepth)) throw tooDeep();
    return value;
  },
  parseLiteral: (node, variables) => literalToJson(node, variables),
});
