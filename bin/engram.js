#!/usr/bin/env node
// The TypeScript sources run through tsx's loader: no build step between `npm install` and use.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv.slice(2));
