import { writeFileSync } from 'node:fs';
import { CONFIG_DOCS_FILE, renderConfigDocs, undocumentedVariables } from '../src/config-docs.js';

const { missing, stale } = undocumentedVariables();
if (missing.length > 0 || stale.length > 0) {
  console.error(
    `src/config-docs.ts is out of step with the env schema. Describe: ${missing.join(', ') || '-'}; remove: ${stale.join(', ') || '-'}`,
  );
  process.exit(1);
}
writeFileSync(CONFIG_DOCS_FILE, renderConfigDocs());
console.log(`wrote ${CONFIG_DOCS_FILE}`);
