import { writeFileSync } from 'node:fs';
import { printSchemaFile, SCHEMA_FILE } from '../src/graphql/print.js';

writeFileSync(SCHEMA_FILE, printSchemaFile());
console.log(`wrote ${SCHEMA_FILE}`);
