import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok, type StdioSession, startStdio } from './helpers.js';

/**
 * The research session of issue 14: 12 memories of ~3.4 KB each and 19 relations between them,
 * as an agent would record a week of work on one question. Keys double as the batch tool's local
 * names, so the same records feed memory_create / memory_link and memory_write.
 */

export interface SessionMemory {
  key: string;
  title: string;
  kind: string;
  tags: string[];
  content: string;
}

export interface SessionEdge {
  source: string;
  target: string;
  type: string;
  weight: number;
}

const PARAGRAPH =
  'The measurements were taken on the staging cluster with production-shaped traffic replayed from the March capture. ' +
  'Latency is reported at p50, p95 and p99 over ten-minute windows, after a five-minute warm-up that is discarded. ' +
  'Each run was repeated three times and the spread between runs stayed under four percent for every percentile. ';

/** About 3.4 KB of plausible prose, different per memory so search ranks them. */
const body = (topic: string): string => `${topic}. ${PARAGRAPH.repeat(9)}`.slice(0, 3400);

const memory = (key: string, title: string, kind: string, tags: string[]): SessionMemory => ({
  key,
  title,
  kind,
  tags,
  content: body(title),
});

export const SESSION_MEMORIES: SessionMemory[] = [
  memory('q-latency', 'Why did p99 latency double after the 4.2 release?', 'question', ['latency', 'release']),
  memory('h-cache', 'Hypothesis: the new cache eviction policy causes the p99 regression', 'hypothesis', ['latency']),
  memory('h-gc', 'Hypothesis: longer GC pauses from the larger heap cause it', 'hypothesis', ['latency', 'gc']),
  memory('h-gc-v2', 'Hypothesis (revised): GC pauses only under the batch workload', 'hypothesis', ['latency', 'gc']),
  memory('e-replay', 'Experiment: replay March traffic with the old eviction policy', 'experiment', ['latency']),
  memory('e-canary', 'Experiment: canary with eviction reverted in one region', 'experiment', ['latency']),
  memory('e-gc-log', 'Experiment: GC logs during the regression window', 'experiment', ['gc']),
  memory('e-heap', 'Experiment: run 4.2 with the 4.1 heap size', 'experiment', ['gc']),
  memory('f-eviction', 'Finding: the eviction policy change landed in 4.2', 'fact', ['release']),
  memory('f-heap', 'Finding: the default heap grew from 4 GB to 8 GB in 4.2', 'fact', ['release', 'gc']),
  memory('d-revert', 'Decision: revert the eviction policy in 4.2.1', 'decision', ['release']),
  memory('n-followup', 'Follow-up: watch batch-workload GC pauses for two weeks', 'note', ['gc']),
];

export const SESSION_EDGES: SessionEdge[] = [
  { source: 'h-cache', target: 'q-latency', type: 'RELATED_TO', weight: 0.7 },
  { source: 'h-gc', target: 'q-latency', type: 'RELATED_TO', weight: 0.5 },
  { source: 'h-gc-v2', target: 'h-gc', type: 'SUPERSEDES', weight: 0.9 },
  { source: 'e-replay', target: 'h-cache', type: 'VALIDATES', weight: 0.9 },
  { source: 'e-canary', target: 'h-cache', type: 'VALIDATES', weight: 0.8 },
  { source: 'e-gc-log', target: 'h-gc', type: 'CONTRADICTS', weight: 0.6 },
  { source: 'e-heap', target: 'h-gc', type: 'FAILS_TO_REPRODUCE', weight: 0.5 },
  { source: 'e-gc-log', target: 'h-gc-v2', type: 'VALIDATES', weight: 0.6 },
  { source: 'e-canary', target: 'e-replay', type: 'REPLICATES', weight: 0.7 },
  { source: 'h-cache', target: 'f-eviction', type: 'USES_ASSUMPTION', weight: 0.6 },
  { source: 'h-gc', target: 'f-heap', type: 'USES_ASSUMPTION', weight: 0.5 },
  { source: 'h-cache', target: 'f-eviction', type: 'CAUSED_BY', weight: 0.6 },
  { source: 'd-revert', target: 'h-cache', type: 'CAUSED_BY', weight: 0.8 },
  { source: 'd-revert', target: 'e-canary', type: 'CAUSED_BY', weight: 0.7 },
  { source: 'd-revert', target: 'q-latency', type: 'RELATED_TO', weight: 0.8 },
  { source: 'n-followup', target: 'h-gc-v2', type: 'RELATED_TO', weight: 0.4 },
  { source: 'n-followup', target: 'e-gc-log', type: 'CITES', weight: 0.4 },
  { source: 'e-heap', target: 'f-heap', type: 'CITES', weight: 0.5 },
  { source: 'e-replay', target: 'q-latency', type: 'RELATED_TO', weight: 0.5 },
];

/**
 * A stdio session on a fresh database in a new temporary folder (`dir`, for the caller to remove),
 * holding the research session: its memories, then its edges.
 */
export async function startResearchSession(prefix: string): Promise<{ dir: string; session: StdioSession }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const session = await startStdio({ dbPath: join(dir, 'engram.db'), workspace: 'research' });
  for (const memory of SESSION_MEMORIES) await ok(session.client, 'memory_create', { ...memory });
  for (const edge of SESSION_EDGES)
    await ok(session.client, 'memory_link', {
      source_id: edge.source,
      target_id: edge.target,
      edge_type: edge.type,
      weight: edge.weight,
    });
  return { dir, session };
}
