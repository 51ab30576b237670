import { readFileSync } from 'node:fs';
import { type GraphQLNamedType, isEnumType, isInputObjectType, isObjectType, isScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printableSchema } from '../../src/graphql/index.js';
import { printSchemaFile, SCHEMA_FILE } from '../../src/graphql/print.js';

describe('schema/schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema:print` after changing the API)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printSchemaFile());
  });
});

describe('schema descriptions', () => {
  const own = (type: GraphQLNamedType) =>
    !type.name.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name);

  it('describes every type, field, argument, input field and enum value', () => {
    const missing: string[] = [];
    for (const type of Object.values(printableSchema().getTypeMap()).filter(own)) {
      if (!type.description) missing.push(type.name);
      if (isObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of field.args) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields()))
          if (!field.description) missing.push(`${type.name}.${field.name}`);
      } else if (isEnumType(type)) {
        for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
      } else if (!isScalarType(type)) {
        missing.push(`${type.name} (unexpected kind)`);
      }
    }
    expect(missing).toEqual([]);
  });
});
