import { z } from 'zod';
import type { OperationError } from './execute.js';

/*
 * Tool arguments are checked here rather than by the SDK: zod would strip a misspelt argument and
 * the call would run without it (memory_traverse{depth: 1} walked to the default depth), and the
 * SDK's own messages ("expected string, received undefined") never say what to send instead.
 */

/** Alternate argument name -> the tool's own name, e.g. `from_id` -> `source_id`. */
export type ArgumentAliases = Readonly<Record<string, string>>;

const badArgument = (argument: string, message: string): OperationError => ({
  code: 'BAD_USER_INPUT',
  message,
  argument,
  retryable: false,
});

/** Case, `_` and `-` do not count: fromId, from-id and from_id are the same name. */
const normalise = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Edits between two names; swapping two neighbouring letters counts as one edit (a common typo). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, index) => index)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const above = rows[i - 1] as number[];
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1);
      best = Math.min(best, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The valid name an unknown one most likely meant, or null when none is close: a typo (a few
 * edits), another spelling of the same name, or a name the valid one contains (depth -> max_depth).
 */
export function closestName(unknown: string, valid: readonly string[]): string | null {
  const wanted = normalise(unknown);
  let best: { name: string; distance: number } | null = null;
  for (const name of valid) {
    const candidate = normalise(name);
    const contained = wanted.length >= 3 && (candidate.includes(wanted) || wanted.includes(candidate));
    const distance = contained ? Math.min(1, editDistance(wanted, candidate)) : editDistance(wanted, candidate);
    if (best === null || distance < best.distance) best = { name, distance };
  }
  const tolerance = Math.max(2, Math.floor(wanted.length / 3));
  return best !== null && best.distance <= tolerance ? best.name : null;
}

function unknownArgument(name: string, valid: readonly string[]): OperationError {
  const suggestion = closestName(name, valid);
  const advice = suggestion
    ? `did you mean ${suggestion}?`
    : `this tool takes ${valid.length > 0 ? valid.join(', ') : 'no arguments'}`;
  return badArgument(name, `unknown argument ${name}; ${advice}`);
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Aliases replaced by the tool's own names; unknown names and conflicting aliases refused. */
function resolveNames(
  raw: Record<string, unknown>,
  names: readonly string[],
  aliases: ArgumentAliases,
): { values: Record<string, unknown>; errors: OperationError[] } {
  const values: Record<string, unknown> = {};
  const givenAs: Record<string, string> = {};
  const errors: OperationError[] = [];
  const known = new Set(names);
  for (const [sent, value] of Object.entries(raw)) {
    const name = known.has(sent) ? sent : aliases[sent];
    if (name === undefined) {
      errors.push(unknownArgument(sent, [...names, ...Object.keys(aliases)]));
      continue;
    }
    const earlier = givenAs[name];
    if (earlier !== undefined && !sameValue(values[name], value)) {
      errors.push(
        badArgument(name, `${earlier} and ${sent} name the same argument (${name}) with different values; give one`),
      );
      continue;
    }
    values[name] = value;
    givenAs[name] = sent;
  }
  return { values, errors };
}

function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodObject, values: Record<string, unknown>): OperationError {
  const path = issue.path.map(String);
  const argument = path[0] ?? 'arguments';
  if (issue.code === 'invalid_type' && path.length === 1 && values[argument] === undefined) {
    const description = schema.shape[argument]?.description;
    return badArgument(
      argument,
      `missing required argument ${argument}${description ? ` (${description.replace(/\.$/, '')})` : ''}`,
    );
  }
  return badArgument(argument, `${path.join('.') || 'arguments'}: ${issue.message}`);
}

/** The fields of the records a list argument holds, or null when it holds no records. */
function recordFields(type: unknown): string[] | null {
  let inner = type;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable)
    inner = inner.unwrap();
  if (!(inner instanceof z.ZodArray) || !(inner.element instanceof z.ZodObject)) return null;
  return Object.keys(inner.element.shape);
}

/** The records of a list argument (memory_write's memories and edges) read as strictly as the arguments. */
function readRecords(
  name: string,
  type: unknown,
  records: unknown[],
  aliases: ArgumentAliases,
  errors: OperationError[],
): unknown[] {
  const fields = recordFields(type);
  if (fields === null) return records;
  return records.map((record, at) => {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
    const resolved = resolveNames(record as Record<string, unknown>, fields, aliases);
    for (const error of resolved.errors)
      errors.push({
        ...error,
        argument: `${name}[${at}].${error.argument}`,
        message: `${name}[${at}]: ${error.message}`,
      });
    return resolved.values;
  });
}

/**
 * The tool's input from the raw arguments of a call, or one BAD_USER_INPUT per problem: each
 * unknown argument with the closest valid name, each missing one with what it is, each wrong value.
 */
export function readArguments<TInput extends z.ZodObject>(
  schema: TInput,
  aliases: ArgumentAliases,
  raw: unknown,
  listAliases: Record<string, ArgumentAliases> = {},
): { input: z.output<TInput> } | { errors: OperationError[] } {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
    return { errors: [badArgument('arguments', 'arguments must be a JSON object')] };
  const { values, errors } = resolveNames((raw ?? {}) as Record<string, unknown>, Object.keys(schema.shape), aliases);
  for (const [name, type] of Object.entries(schema.shape)) {
    if (Array.isArray(values[name]))
      values[name] = readRecords(name, type, values[name], listAliases[name] ?? {}, errors);
  }
  if (errors.length > 0) return { errors };
  const parsed = schema.safeParse(values);
  if (!parsed.success) return { errors: parsed.error.issues.map((issue) => describeIssue(issue, schema, values)) };
  return { input: parsed.data as z.output<TInput> };
}

/** The sentence each tool's description ends with, so the alternate names are discoverable. */
export function aliasSentence(aliases: ArgumentAliases): string {
  const entries = Object.entries(aliases);
  if (entries.length === 0) return '';
  const byName = new Map<string, string[]>();
  for (const [alias, name] of entries) byName.set(name, [...(byName.get(name) ?? []), alias]);
  return ` Aliases: ${[...byName].map(([name, names]) => `${names.join(', ')} (${name})`).join('; ')}.`;
}
