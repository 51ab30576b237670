import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Logger } from '../../logger.js';
import { advertiseOnly } from '../advertise.js';
import type { Execute } from '../execute.js';
import { errorResult, type RegisteredEngramTool, type ToolHints } from '../tool.js';
import { ToolFailure } from './graph-io.js';

/*
 * The profile's tools read their arguments as the official server does: fields it does not know
 * are ignored, not refused (agents trained on it send what its clients sent, and nothing the
 * official client sends may fail here). Values of the wrong type are still BAD_USER_INPUT.
 */

export interface ProfileTool<TInput extends z.ZodObject, TOutput extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: TInput;
  output: TOutput;
  hints: ToolHints;
  /** The answer: structured content, and the text the official server would give (JSON, or its message). */
  run(input: z.output<TInput>, execute: Execute): Promise<{ structured: z.output<TOutput>; text?: string }>;
}

function badArguments(error: z.ZodError): CallToolResult {
  return errorResult(
    error.issues.map((issue) => {
      const argument = issue.path.map(String).join('.') || 'arguments';
      return { code: 'BAD_USER_INPUT', message: `${argument}: ${issue.message}`, argument, retryable: false };
    }),
  );
}

export function defineProfileTool<TInput extends z.ZodObject, TOutput extends z.ZodObject>(
  tool: ProfileTool<TInput, TOutput>,
): RegisteredEngramTool {
  return {
    name: tool.name,
    register(server: McpServer, deps: { execute: Execute; logger?: Logger }) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: advertiseOnly(tool.input),
          outputSchema: tool.output,
          annotations: tool.hints,
        },
        async (raw: unknown): Promise<CallToolResult> => {
          const parsed = tool.input.safeParse(raw ?? {});
          if (!parsed.success) return badArguments(parsed.error);
          try {
            const answer = await tool.run(parsed.data, deps.execute);
            const text = answer.text ?? JSON.stringify(answer.structured, null, 2);
            return {
              content: [{ type: 'text', text }],
              structuredContent: answer.structured as Record<string, unknown>,
            };
          } catch (error) {
            if (error instanceof ToolFailure) return errorResult(error.errors);
            deps.logger?.error({ err: error, tool: tool.name }, 'mcp tool failed unexpectedly');
            return errorResult([]);
          }
        },
      );
    },
  };
}

/** The text the official write tools answer: the list they return, as indented JSON. */
export const listText = (list: readonly unknown[]): string => JSON.stringify(list, null, 2);

// ---- the official server's shapes

export const entityShape = z.object({
  name: z.string().describe('Unique name of the entity.'),
  entityType: z.string().describe('What kind of thing it is (person, project ...).'),
  observations: z.array(z.string()).describe('Facts about the entity, one string each, in order.'),
});

export const relationShape = z.object({
  from: z.string().describe('Name of the entity the relation starts at.'),
  to: z.string().describe('Name of the entity the relation points to.'),
  relationType: z.string().describe('The relation, in active voice (works_at).'),
});

export const graphShape = z.object({
  entities: z.array(entityShape),
  relations: z.array(relationShape),
  next_cursor: z
    .string()
    .optional()
    .describe('Present when more follows: call again with this cursor for the next page.'),
});

export const messageShape = z.object({ success: z.boolean(), message: z.string() });

export const cursorInput = z
  .string()
  .optional()
  .describe('next_cursor of the previous answer, for the next page (optional: the first page has none).');

export const READ_HINTS: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const ADD_HINTS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const DELETE_HINTS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
