import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MASKED } from '../domain/errors.js';
import type { TypedDocumentString } from '../generated/graphql.js';
import type { Logger } from '../logger.js';
import { advertisedOutput, advertiseOnly } from './advertise.js';
import type { Execute, OperationError } from './execute.js';
import { type ArgumentAliases, aliasSentence, readArguments } from './strict-input.js';

/** Every hint stated explicitly, so no tool falls back to the spec's pessimistic defaults by omission. */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool answers when the operation succeeded: structured output plus a short text for people. */
type ToolAnswer<TOutput> = { structured: TOutput; text: string } | { error: OperationError };

export interface ToolDefinition<TInput extends z.ZodObject, TOutput extends z.ZodObject, TResult, TVariables> {
  name: string;
  title: string;
  description: string;
  input: TInput;
  output: TOutput;
  hints: ToolHints;
  /** The ONE named operation the tool runs (schema/operations/*.graphql). */
  document: TypedDocumentString<TResult, TVariables>;
  /** Tool arguments (snake_case) -> operation variables (the GraphQL contract). */
  variables(input: z.output<TInput>): TVariables;
  present(data: TResult, input: z.output<TInput>): ToolAnswer<z.output<TOutput>>;
  /** GraphQL argument paths -> tool argument names, so error messages name what the agent sent. */
  argumentNames?: Record<string, string>;
  /** Other names agents trained on similar tools use for this tool's arguments (alias -> own name). */
  aliases?: ArgumentAliases;
  /** The list that is cut when a default answer would pass OUTPUT_BUDGET (see fitToBudget). */
  fit?: OutputFit;
}

/** Where a tool's main list is in the operation's data, and the argument that sizes it. */
interface OutputFit {
  /** Path to the list in the operation's data, e.g. ['memory', 'neighbors'] (or a path per call). */
  list: readonly string[] | ((input: Record<string, unknown>, data: unknown) => readonly string[]);
  /** The tool argument that asks for a number of items: given explicitly, the answer is not cut. */
  sizeArgument: string;
  /** How to see what was left out, when it is not `pass <sizeArgument>`. */
  hint?: string;
}

/**
 * Characters one default answer may put in an agent's context, text and structuredContent
 * together (clients pass either or both to the model). Past it, a tool with `fit` lists fewer items
 * and says how many it left out; an agent that asks for a size (limit) gets that size.
 */
const OUTPUT_BUDGET = 4_000;

const omittedOutput = z
  .number()
  .optional()
  .describe('Items left out to keep a default answer under 4,000 characters; pass limit for them.');

export interface ToolDeps {
  execute: Execute;
  logger?: Logger;
}

export interface RegisteredEngramTool {
  name: string;
  register(server: McpServer, deps: ToolDeps): void;
}

/** `maxHops: must be ...` becomes `max_hops: must be ...`. */
function renameArgument(error: OperationError, names: Record<string, string> = {}): OperationError {
  if (!error.argument) return error;
  const name = names[error.argument];
  if (!name) return error;
  const message = error.message.startsWith(`${error.argument}:`)
    ? `${name}${error.message.slice(error.argument.length)}`
    : error.message;
  return { ...error, argument: name, message };
}

const UNEXPECTED: OperationError = { ...MASKED, message: 'Unexpected error.' };

export function errorResult(errors: OperationError[]): CallToolResult {
  const [first, ...rest] = errors;
  const error = first ?? UNEXPECTED;
  const text = [error, ...rest].map((e) => `${e.code}: ${e.message}`).join('\n');
  return {
    isError: true,
    content: [{ type: 'text', text }],
    structuredContent: { error, ...(rest.length > 0 ? { more_errors: rest } : {}) },
  };
}

/** What every tool advertises, and how its raw arguments are read before they are checked. */
export interface ToolMeta<TInput extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: TInput;
  output: z.ZodObject;
  hints: ToolHints;
  aliases?: ArgumentAliases;
  /** Aliases for the fields of the records a list argument holds (memory_write's edges). */
  listAliases?: Record<string, ArgumentAliases>;
}

/**
 * Registers a tool whose arguments are read strictly (see strict-input.ts) before `run` sees them;
 * a failure `run` did not expect is logged and answered as the masked error, never thrown at the client.
 */
export function registerStrictTool<TInput extends z.ZodObject>(
  server: McpServer,
  meta: ToolMeta<TInput>,
  logger: Logger | undefined,
  run: (input: z.output<TInput>) => Promise<CallToolResult>,
): void {
  const aliases = meta.aliases ?? {};
  server.registerTool(
    meta.name,
    {
      title: meta.title,
      description: meta.description + aliasSentence(aliases),
      inputSchema: advertiseOnly(meta.input),
      outputSchema: advertisedOutput(meta.output),
      annotations: meta.hints,
    },
    async (raw: unknown): Promise<CallToolResult> => {
      const read = readArguments(meta.input, aliases, raw, meta.listAliases);
      if ('errors' in read) return errorResult(read.errors);
      try {
        return await run(read.input);
      } catch (error) {
        logger?.error({ err: error, tool: meta.name }, 'mcp tool failed unexpectedly');
        return errorResult([UNEXPECTED]);
      }
    },
  );
}

const answerSize = (answer: { structured: unknown; text: string }): number =>
  answer.text.length + JSON.stringify(answer.structured).length;

/** `data` with the list at `path` cut to its first `count` items; the rest shared, not copied. */
function withListCut(data: unknown, path: readonly string[], count: number): unknown {
  if (path.length === 0) return Array.isArray(data) ? data.slice(0, count) : data;
  if (typeof data !== 'object' || data === null) return data;
  const [head, ...rest] = path as [string, ...string[]];
  return { ...data, [head]: withListCut((data as Record<string, unknown>)[head], rest, count) };
}

const listAt = (data: unknown, path: readonly string[]): unknown[] | null => {
  let value = data;
  for (const step of path)
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[step] : null;
  return Array.isArray(value) ? value : null;
};

/**
 * The longest prefix of the tool's list whose answer fits OUTPUT_BUDGET (at least one item), told
 * in `omitted` and in a last line of the text. Answers are built from a prefix of the data, so
 * each keeps the tool's own order and wording; the search presents O(log n) times.
 */
function fitToBudget<TOutput, TResult>(
  data: TResult,
  input: Record<string, unknown>,
  fit: OutputFit,
  present: (data: TResult) => ToolAnswer<TOutput>,
  answer: { structured: TOutput; text: string },
): { structured: TOutput; text: string } {
  const path = typeof fit.list === 'function' ? fit.list(input, data) : fit.list;
  const list = listAt(data, path);
  if (list === null || list.length <= 1 || answerSize(answer) <= OUTPUT_BUDGET) return answer;
  const attempt = (count: number) => {
    const cut = present(withListCut(data, path, count) as TResult);
    if ('error' in cut) return null;
    const omitted = list.length - count;
    const structured = { ...cut.structured, omitted } as TOutput;
    const how = fit.hint ?? `pass ${fit.sizeArgument} for them, or detail "ids" for less of each`;
    const text = `${cut.text}\n(${omitted} more left out to keep this answer short: ${how}.)`;
    return { structured, text };
  };
  let fitting = attempt(1) ?? answer;
  for (let low = 1, high = list.length - 1; low <= high; ) {
    const middle = Math.floor((low + high) / 2);
    const candidate = attempt(middle);
    if (candidate && answerSize(candidate) <= OUTPUT_BUDGET) {
      fitting = candidate;
      low = middle + 1;
    } else high = middle - 1;
  }
  return fitting;
}

/** Keeps the tool's types together; the registry only needs a name and a way to register. */
export function defineTool<TInput extends z.ZodObject, TOutput extends z.ZodObject, TResult, TVariables>(
  tool: ToolDefinition<TInput, TOutput, TResult, TVariables>,
): RegisteredEngramTool {
  const meta = tool.fit ? { ...tool, output: tool.output.extend({ omitted: omittedOutput }) } : tool;
  return {
    name: tool.name,
    register(server, { execute, logger }) {
      registerStrictTool(server, meta, logger, async (input) => {
        const outcome = await execute(tool.document, tool.variables(input));
        if (outcome.errors)
          return errorResult(outcome.errors.map((error) => renameArgument(error, tool.argumentNames)));
        let answer = tool.present(outcome.data, input);
        if ('error' in answer) return errorResult([answer.error]);
        const { fit } = tool;
        if (fit && (input as Record<string, unknown>)[fit.sizeArgument] === undefined)
          answer = fitToBudget(
            outcome.data,
            input as Record<string, unknown>,
            fit,
            (data) => tool.present(data, input),
            answer,
          );
        return {
          content: [{ type: 'text', text: answer.text }],
          structuredContent: answer.structured as Record<string, unknown>,
        };
      });
    },
  };
}
