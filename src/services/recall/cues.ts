import type { RecallSettings } from '../../config.js';
import { type AssociationQuestion, associationQuestion } from '../../domain/associations.js';
import { newId, nowIso } from '../../domain/ids.js';
import { cueMatch, cueWords } from '../../domain/recall-cues.js';
import { isPruned } from '../../domain/weights.js';
import type { EngramContext } from '../../graphql/context.js';
import type { RecalledCue, RecallRecord } from '../../store/port.js';
import type { WriteScope } from '../writes.js';

/**
 * The newest cues a recall reads under each key of its question. A key is a name (or, for a
 * question without names, a term); a name asked about often files many cues, and the newest
 * CUES_PER_KEY are what the recall weighs: at most MAX_CUE_KEYS x this rows, whatever the workspace holds.
 */
const CUES_PER_KEY = 50;

/** A memory a cue makes a seed: how strongly, and the cue, for the result's explanation and feedback. */
export interface CueSeed {
  strength: number;
  cue: RecalledCue;
}

/**
 * The memories the question's cues point to (domain/recall-cues.ts): for each, its best cue's match
 * times the cue edge's weight against the learned weight (at most 1), so feedback on the edge moves
 * the cue, and a pruned or reverted edge silences it. One store call; none when the question has
 * no words or learning is off.
 */
export async function cueSeeds(
  ctx: EngramContext,
  question: AssociationQuestion | null,
  settings: RecallSettings,
): Promise<Map<string, CueSeed>> {
  const seeds = new Map<string, CueSeed>();
  const words = question && settings.learnedPerMemory > 0 ? cueWords(question) : null;
  if (!words) return seeds;
  const cues = await ctx.store.findRecallCues(ctx.workspace, words.keys, CUES_PER_KEY);
  for (const cue of cues) {
    if (isPruned(cue.edgeWeight, ctx.policy)) continue;
    const match = cueMatch(words, cue);
    if (match === 0) continue;
    const strength = match * Math.min(1, cue.edgeWeight / settings.learnedWeight);
    const best = seeds.get(cue.memoryId);
    if (best && best.strength >= strength) continue;
    seeds.set(cue.memoryId, {
      strength,
      cue: { edgeId: cue.edgeId, names: cue.names, terms: cue.terms, match },
    });
  }
  return seeds;
}

/**
 * Files the recall's question as a cue of the memory USED feedback marked, on the learned
 * association `edgeId` (learning.ts). Returns its id, to be removed again if the feedback's weight
 * changes fail; null when the recall had no question or its question no words.
 */
export async function fileCue(
  scope: WriteScope,
  record: RecallRecord,
  memoryId: string,
  edgeId: string,
  keepPerMemory: number,
): Promise<string | null> {
  const words = record.query === null ? null : cueWords(associationQuestion(record.query));
  if (!words || keepPerMemory === 0) return null;
  const id = newId();
  await scope.store.saveRecallCue(
    scope.workspace,
    { id, memoryId, edgeId, ...words, createdAt: nowIso() },
    keepPerMemory,
  );
  return id;
}
