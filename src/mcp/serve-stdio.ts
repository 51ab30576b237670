import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createApp, WORKSPACE_HEADER } from '../app.js';
import { ConfigError, loadConfig } from '../config.js';
import { StartupError } from '../domain/errors.js';
import { createLogger } from '../logger.js';
import { createStore } from '../store/create-store.js';
import { createInProcessExecutor } from './execute.js';
import { buildServer, type McpProfile } from './server.js';

/**
 * What `engram mcp [--profile NAME]` and `npm run mcp` (stdio.ts) serve: the profile's MCP tools
 * over stdio, in the workspace named by ENGRAM_WORKSPACE, on the same store the HTTP server uses.
 * stdout is the protocol: every diagnostic goes to stderr.
 */
async function main(profile: McpProfile): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const store = await createStore(config);
  const app = createApp({ config, store, logger });
  // With API keys the agent is a client like any other: it presents its key, and the key decides
  // the workspace. Without one every call would fail, so say so now rather than on the first tool call.
  if (config.apiKeys.length > 0 && config.mcpApiKey === null) {
    throw new ConfigError(
      'ENGRAM_MCP_API_KEY: API keys are configured, so the MCP server needs a key of its own to present',
    );
  }
  const identity: Record<string, string> =
    config.mcpApiKey === null
      ? { [WORKSPACE_HEADER]: config.mcpWorkspace }
      : { authorization: `Bearer ${config.mcpApiKey}` };
  const execute = createInProcessExecutor((url, init) => app.fetch(url, init), identity);
  const connection = serveStdio(() => buildServer({ execute, logger }, profile), {
    onerror: (error) => logger.warn({ err: error }, 'mcp stdio error'),
  });

  logger.info(
    {
      workspace: config.mcpApiKey === null ? config.mcpWorkspace : 'from ENGRAM_MCP_API_KEY',
      store: store.description,
      profile,
    },
    'engram mcp serving on stdio',
  );

  let closing = false;
  const shutdown = (why: string) => {
    if (closing) return;
    closing = true;
    logger.info({ why }, 'engram mcp shutting down');
    void connection
      .close()
      .catch(() => undefined)
      .then(() => store.close())
      .finally(() => process.exit(0));
  };
  // The client closing stdin ends the session (MCP stdio binding).
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Serves until stdin closes; a start-up failure is one line on stderr and exit code 1. */
export function serveMcpStdio(profile: McpProfile): void {
  main(profile).catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof StartupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
