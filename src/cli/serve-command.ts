const USAGE = `Usage: engram serve

Starts the HTTP server: GraphQL at /graphql, /health, /ready, /metrics, the explorer and MCP over
HTTP. It reads its settings from the environment (PORT, HOST, ENGRAM_STORE, ENGRAM_SQLITE_PATH, ...)
and stops cleanly on SIGTERM or SIGINT.
`;

export async function run(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  await import('../server.js');
}
