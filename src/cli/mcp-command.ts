export async function run(): Promise<void> {
  await import('../mcp/stdio.js');
}
