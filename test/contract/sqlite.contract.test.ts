import { runStoreContract } from './run-contract.js';
import { sqliteHarness } from './sqlite-harness.js';

runStoreContract('sqlite', sqliteHarness(true));
runStoreContract('sqlite, SQL only (no adjacency index)', sqliteHarness(false));
