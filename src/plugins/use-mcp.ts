import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import { createInProcessExecutor, type FetchHandler } from '../mcp/execute.js';
import { buildServer, isMcpProfile, MCP_PROFILES, type McpProfile } from '../mcp/server.js';

export const MCP_ENDPOINT = '/mcp';

/** How a client picks the tool set: `/mcp?profile=server-memory`, or this header (docs/mcp.md). */
const MCP_PROFILE_PARAMETER = 'profile';
const MCP_PROFILE_HEADER = 'x-engram-mcp-profile';

/** Headers that scope or authorise a request: passed from the MCP request to the operations it runs. */
const FORWARDED_HEADERS = ['x-engram-workspace', 'authorization'];

/**
 * Serves the MCP tools over Streamable HTTP at /mcp (stateless: one server per request). Each
 * tool call runs its operation through `fetch` (the app's own, so /graphql and /mcp resolve
 * workspaces, limits and errors identically) with the caller's workspace header.
 */
export function useMcp(options: { logger: Logger; maxBodyBytes: number; fetch: FetchHandler }): Plugin {
  const handlerFor = (profile: McpProfile) =>
    createMcpHandler(
      ({ requestInfo }) => {
        const headers: Record<string, string> = {};
        for (const name of FORWARDED_HEADERS) {
          const value = requestInfo?.headers.get(name);
          if (value) headers[name] = value;
        }
        const execute = createInProcessExecutor(options.fetch, headers);
        return buildServer({ execute, logger: options.logger }, profile);
      },
      {
        maxRequestBodySize: options.maxBodyBytes,
        onerror: (error) => options.logger.warn({ err: error }, 'mcp http error'),
      },
    );
  const handlers = Object.fromEntries(MCP_PROFILES.map((profile) => [profile, handlerFor(profile)])) as Record<
    McpProfile,
    ReturnType<typeof handlerFor>
  >;

  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname !== MCP_ENDPOINT) return;
      const asked = url.searchParams.get(MCP_PROFILE_PARAMETER) ?? request.headers.get(MCP_PROFILE_HEADER) ?? 'engram';
      if (!isMcpProfile(asked)) {
        endResponse(
          Response.json(
            {
              jsonrpc: '2.0',
              id: null,
              error: {
                code: -32602,
                message: `${MCP_PROFILE_PARAMETER}: unknown MCP profile "${asked}"; use ${MCP_PROFILES.join(' or ')}`,
              },
            },
            { status: 400 },
          ),
        );
        return;
      }
      try {
        endResponse(await handlers[asked].fetch(request));
      } catch (error) {
        // Exceptions from onRequest are not caught by the server adapter: answer here.
        options.logger.error({ err: error }, 'mcp http request failed');
        endResponse(
          Response.json(
            { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } },
            { status: 500 },
          ),
        );
      }
    },
  };
}
