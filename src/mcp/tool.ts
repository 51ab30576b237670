import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { z } from 'zod';
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
}

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

/** Keeps the tool's types together; the registry only needs a name and a way to register. */
export function defineTool<TInput extends z.ZodObject, TOutput extends z.ZodObject, TResult, TVariables>(
  tool: ToolDefinition<TInput, TOutput, TResult, TVariables>,
): RegisteredEngramTool {
  return {
    name: tool.name,
    register(server, { execute, logger }) {
      registerStrictTool(server, tool, logger, async (input) => {
        const outcome = await execute(tool.document, tool.variables(input));
        if (outcome.errors)
          return errorResult(outcome.errors.map((error) => renameArgument(error, tool.argumentNames)));
        const answer = tool.present(outcome.data, input);
        if ('error' in answer) return errorResult([answer.error]);
        return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured };
      });
    },
  };
}
