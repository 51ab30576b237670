import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';

/*
 * What tools/list shows. Every agent reads the whole list into its context before its first call,
 * so each byte there is paid on every conversation: schemas are advertised lean, while the tools
 * still check their arguments and results against the full zod schemas.
 */

type JsonSchema = Record<string, unknown>;
type JsonSchemaConverter = z.ZodObject['~standard']['jsonSchema'];

/**
 * The input schema as advertised; the SDK accepts any arguments, so every refusal comes from
 * `readArguments` (strict-input.ts) with the contract's error shape.
 */
export function advertiseOnly(schema: z.ZodObject): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'engram',
      validate: (value: unknown) => ({ value }),
      jsonSchema: transformed(schema, withoutDialect),
    },
  };
}

/**
 * The output schema as zod checks it, advertised one level deep: the top-level fields with their
 * types (which of them are always present is the tool's own zod check, not the client's). The fields inside (a memory, an edge ...) are what the tool description and docs/mcp.md
 * name, and spelling them out again for every tool made the output schemas half of tools/list.
 */
export function advertisedOutput(schema: z.ZodObject): StandardSchemaWithJSON {
  return { '~standard': { ...schema['~standard'], jsonSchema: transformed(schema, topLevelOnly) } };
}

function transformed(schema: z.ZodObject, transform: (json: JsonSchema) => JsonSchema): JsonSchemaConverter {
  const convert = schema['~standard'].jsonSchema;
  return {
    input: (options) => transform(convert.input(options)),
    output: (options) => transform(convert.output(options)),
  };
}

/** MCP fixes the dialect (JSON Schema 2020-12), so the `$schema` line says nothing. */
function withoutDialect(json: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

/** A field's type without what is inside it: `object`, `array`, a scalar type, or its enum. */
function typeOnly(field: JsonSchema): JsonSchema {
  if (Array.isArray(field.anyOf)) {
    const branches = (field.anyOf as JsonSchema[]).map(typeOnly);
    // `object or null` as one type list: the same schema in a third of the characters.
    const types = branches.map((branch) => branch.type);
    if (branches.every((branch) => Object.keys(branch).length === 1 && typeof branch.type === 'string'))
      return { type: types };
    return { anyOf: branches };
  }
  if (field.enum !== undefined) return { type: field.type, enum: field.enum };
  if (field.const !== undefined) return { const: field.const };
  return field.type === undefined ? {} : { type: field.type };
}

function topLevelOnly(json: JsonSchema): JsonSchema {
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, typeOnly(field)])),
  };
}
