import { serveMcpStdio } from './serve-stdio.js';

// `npm run mcp` and `node dist/mcp/stdio.js`: the entry point runs, and nothing imports it, so a
// bundle that holds it never starts a second server.
serveMcpStdio('engram');
