/**
 * `engram <command>`: each command lives in its own module, loaded only when asked for, so
 * `engram mcp` does not pay for the import tooling and vice versa.
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run(argv: string[]): Promise<void> }> }> = {
  serve: { summary: 'start the HTTP server (same as npm start)', load: () => import('./serve-command.js') },
  mcp: { summary: 'serve the MCP tools over stdio (same as npm run mcp)', load: () => import('./mcp-command.js') },
  import: {
    summary: 'load memories and edges from an NDJSON file (idempotent; --workspace NAME)',
    load: () => import('./import-command.js'),
  },
  export: {
    summary: 'write a workspace as NDJSON to stdout (--workspace NAME)',
    load: () => import('./export-command.js'),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return `Usage: engram <command> [options]\n\nCommands:\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(usage());
    process.exitCode = name && name !== '--help' && name !== '-h' ? 2 : 0;
    return;
  }
  await (await command.load()).run(rest);
}
