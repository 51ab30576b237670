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
  /**
   * For a tool over a `<list>Connection` field: the path to the connection in the operation's data.
   * The answer then carries `next_cursor` (the cursor of its last item) whenever items follow it,
   * on the next page or because the budget cut the list; `fit.list` is that connection's `edges`.
   */
  pages?: readonly string[];
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

const omittedOutput = z.number().optional().describe('Items cut to keep the answer short; pass limit for them.');

const nextCursorOutput = z.string().optional().describe('More follow: pass it as cursor.');

/** How a paged tool's cut answer tells the way to the rest (see withNextCursor). */
export const PAGE_HINT = 'next_cursor continues after the last one shown';

/** `cursor`: the input of every paged tool. */
export const cursorInput = z.string().optional().describe("The previous answer's next_cursor.");

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

/** A tool's answer, before it becomes a CallToolResult. */
interface Answer<TOutput> {
  structured: TOutput;
  text: string;
}

const answerSize = (answer: Answer<unknown>): number => answer.text.length + JSON.stringify(answer.structured).length;

/** `data` with the list at `path` cut to its first `count` items; the rest shared, not copied. */
function withListCut(data: unknown, path: readonly string[], count: number): unknown {
  if (path.length === 0) return Array.isArray(data) ? data.slice(0, count) : data;
  if (typeof data !== 'object' || data === null) return data;
  const [head, ...rest] = path as [string, ...string[]];
  return { ...data, [head]: withListCut((data as Record<string, unknown>)[head], rest, count) };
}

/** What `path` leads to in the operation's data; null where a step finds nothing. */
function valueAt(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const step of path)
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[step] : null;
  return value;
}

const listAt = (data: unknown, path: readonly string[]): unknown[] | null => {
  const value = valueAt(data, path);
  return Array.isArray(value) ? value : null;
};

const listPathOf = (fit: OutputFit, input: Record<string, unknown>, data: unknown): readonly string[] =>
  typeof fit.list === 'function' ? fit.list(input, data) : fit.list;

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
  answer: Answer<TOutput>,
  finish: (answer: Answer<TOutput>, shown: number) => Answer<TOutput>,
): Answer<TOutput> {
  const path = listPathOf(fit, input, data);
  const list = listAt(data, path);
  const whole = finish(answer, list?.length ?? 0);
  if (list === null || list.length <= 1 || answerSize(whole) <= OUTPUT_BUDGET) return whole;
  const attempt = (count: number) => {
    const cut = present(withListCut(data, path, count) as TResult);
    if ('error' in cut) return null;
    const omitted = list.length - count;
    const structured = { ...cut.structured, omitted } as TOutput;
    const how = fit.hint ?? `pass ${fit.sizeArgument} for them, or detail "ids" for less of each`;
    const text = `${cut.text}\n(${omitted} more left out to keep this answer short: ${how}.)`;
    return finish({ structured, text }, count);
  };
  let fitting = attempt(1) ?? whole;
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

interface ConnectionData {
  edges: { cursor: string }[];
  pageInfo: { hasNextPage: boolean };
}

/**
 * `next_cursor` for a paged tool's answer that shows the first `kept` items of its page: the cursor
 * of the last one shown, when anything follows it (the rest of the page, or another page).
 */
function withNextCursor<TOutput>(
  answer: Answer<TOutput>,
  data: unknown,
  path: readonly string[],
  kept: number,
): Answer<TOutput> {
  const { edges, pageInfo } = valueAt(data, path) as ConnectionData;
  const last = edges[kept - 1];
  if (!last || (kept >= edges.length && !pageInfo.hasNextPage)) return answer;
  return {
    structured: { ...answer.structured, next_cursor: last.cursor },
    text: `${answer.text}\n(More follow: call again with cursor "${last.cursor}".)`,
  };
}

/** Keeps the tool's types together; the registry only needs a name and a way to register. */
export function defineTool<TInput extends z.ZodObject, TOutput extends z.ZodObject, TResult, TVariables>(
  tool: ToolDefinition<TInput, TOutput, TResult, TVariables>,
): RegisteredEngramTool {
  const output = tool.fit ? tool.output.extend({ omitted: omittedOutput }) : tool.output;
  const meta = { ...tool, output: tool.pages ? output.extend({ next_cursor: nextCursorOutput }) : output };
  return {
    name: tool.name,
    register(server, { execute, logger }) {
      registerStrictTool(server, meta, logger, async (input) => {
        const outcome = await execute(tool.document, tool.variables(input));
        if (outcome.errors)
          return errorResult(outcome.errors.map((error) => renameArgument(error, tool.argumentNames)));
        let answer = tool.present(outcome.data, input);
        if ('error' in answer) return errorResult([answer.error]);
        const { fit, pages } = tool;
        const finish = (shown: Answer<z.output<TOutput>>, count: number) =>
          pages ? withNextCursor(shown, outcome.data, pages, count) : shown;
        const fields = input as Record<string, unknown>;
        if (fit && fields[fit.sizeArgument] === undefined)
          answer = fitToBudget(outcome.data, fields, fit, (data) => tool.present(data, input), answer, finish);
        else if (fit) answer = finish(answer, listAt(outcome.data, listPathOf(fit, fields, outcome.data))?.length ?? 0);
        return {
          content: [{ type: 'text', text: answer.text }],
          structuredContent: answer.structured as Record<string, unknown>,
        };
      });
    },
  };
}
