const USAGE = `Usage: engram mcp

Serves the MCP tools over stdio (stdout is the protocol; logs go to stderr), in the workspace
named by ENGRAM_WORKSPACE, or the one ENGRAM_MCP_API_KEY grants when API keys are configured.
It uses the same store variables as the server (ENGRAM_STORE, ENGRAM_SQLITE_PATH, ...).
`;

export async function run(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  await import('../mcp/stdio.js');
}
