import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchemaFile, SCHEMA_FILE } from '../src/graphql/print.js';

writeFileSync(fileURLToPath(SCHEMA_FILE), printSchemaFile());
console.log(`wrote ${fileURLToPath(SCHEMA_FILE)}`);
