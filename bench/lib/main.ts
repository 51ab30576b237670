/** Runs `main` when this module is the script node started with (a benchmark run alone); a failure exits 1. */
export function runIfMain(moduleUrl: string, main: () => Promise<void>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
