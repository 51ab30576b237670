export async function run(): Promise<void> {
  await import('../server.js');
}
