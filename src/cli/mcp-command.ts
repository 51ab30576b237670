import { parseArgs } from 'node:util';

const USAGE = `Usage: engram mcp [--profile engram | server-memory]

Serves the MCP tools over stdio (stdout is the protocol; logs go to stderr), in the workspace
named by ENGRAM_WORKSPACE, or the one ENGRAM_MCP_API_KEY grants when API keys are configured.
It uses the same store variables as the server (ENGRAM_STORE, ENGRAM_SQLITE_PATH, ...).

--profile engram         Engram's own tools (memory_search, memory_recall, ...); the default.
--profile server-memory  The nine tools of the official MCP memory server (create_entities,
                         read_graph, search_nodes, ...), on the same graph: a drop-in for
                         @modelcontextprotocol/server-memory. See docs/mcp.md.
`;

export async function run(argv: string[]): Promise<void> {
  let profile: string;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { profile: { type: 'string', default: 'engram' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return;
    }
    profile = values.profile;
  } catch (error) {
    process.stderr.write(`engram mcp: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { isMcpProfile } = await import('../mcp/server.js');
  if (!isMcpProfile(profile)) {
    process.stderr.write(`engram mcp: --profile: unknown profile "${profile}"; use engram or server-memory\n`);
    process.exitCode = 2;
    return;
  }
  const { serveMcpStdio } = await import('../mcp/serve-stdio.js');
  serveMcpStdio(profile);
}
