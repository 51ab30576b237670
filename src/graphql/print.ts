import { printSchema } from 'graphql';
import { packagePath } from '../package-path.js';
import { printableSchema } from './index.js';

export const SCHEMA_FILE = packagePath('schema/schema.graphql');

export const printSchemaFile = (): string =>
  `# Generated from the Pothos schema by \`npm run schema:print\`; do not edit by hand.\n# A test fails when this file and the code disagree.\n\n${printSchema(printableSchema())}\n`;
