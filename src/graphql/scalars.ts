import { GraphQLError, Kind, type ValueNode } from 'graphql';
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

function literalToJson(node: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
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
      return node.values.map((value) => literalToJson(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literalToJson(field.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    case Kind.ENUM:
      return node.value;
  }
}

export const JSONScalar = builder.scalarType('JSON', {
  description: 'Any JSON value: object, array, string, number, boolean or null.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => literalToJson(node, variables),
});
