import { badInput, notFound } from '../../domain/errors.js';
import { nowIso } from '../../domain/ids.js';
import type { AdjustmentSource, FeedbackSignal } from '../../domain/types.js';
import type { RecallRecord } from '../../store/port.js';
import { apply, feedbackChanges, requireMemory, type WeightChangeResult, type WriteScope } from '../writes.js';
import { fileCue } from './cues.js';
import { type LearningSettings, learnedAssociations } from './learning.js';

/** The record behind a recallId; NOT_FOUND when it is unknown here or has expired. */
export async function requireRecall(scope: WriteScope, recallId: string): Promise<RecallRecord> {
  const record = await scope.store.getRecall(scope.workspace, recallId, nowIso());
  if (!record) throw notFound(`recallId: no recall "${recallId}" in this workspace (unknown, or expired)`);
  return record;
}

export interface RecallFeedbackInput {
  recallId: string;
  memoryId: string;
  signal: FeedbackSignal;
  reason?: string | null;
  source: AdjustmentSource;
}

/** Every WeightEvent names the recall it came from, then the caller's reason. */
export const recallReason = (recallId: string, reason: string | null | undefined) =>
  reason ? `recall ${recallId}: ${reason}` : `recall ${recallId}`;

/**
 * Feedback on one result of a recorded recall, traced through the path recall recorded for it:
 * USED strengthens the memory and its path's edges, associates the memory with the recall's
 * best word matches (learning.ts) and files the recall's question as a cue of the memory on that
 * association (cues.ts); NOT_RELEVANT weakens the path's edges (for a memory a cue brought, the
 * cue's association);
 * NOT_USEFUL weakens only the memory. NOT_RELEVANT on a seed (a memory that matched by itself, so
 * its path is empty) is BAD_USER_INPUT: no edge carried it there, so there is nothing for it to
 * weaken; NOT_USEFUL, which lowers the memory's own weight (its score's prior), is the signal for
 * it. All changes are one
 * applyWeightChanges call (one transaction); path edges removed since the recall are skipped.
 */
export async function recallFeedback(
  scope: WriteScope,
  input: RecallFeedbackInput,
  learning: LearningSettings,
): Promise<WeightChangeResult[]> {
  const [record, memory] = await Promise.all([
    requireRecall(scope, input.recallId),
    requireMemory(scope, input.memoryId, 'memoryId'),
  ]);
  const result = record.results.find((candidate) => candidate.memoryId === memory.id);
  if (!result) {
    throw badInput('memoryId', `"${input.memoryId}" is not among the results of recall "${input.recallId}"`);
  }
  if (input.signal === 'NOT_RELEVANT' && result.path.length === 0 && result.associations?.length) {
    throw badInput(
      'signal',
      `"${input.memoryId}" was brought to recall "${input.recallId}" by an association (shared terms, not an edge), so there is no edge to weaken; use NOT_USEFUL to weaken the memory`,
    );
  }
  // A memory a recall cue brought was carried by the cue's learned association: that is its path.
  const path = result.path.length === 0 && result.cue ? [result.cue.edgeId] : result.path;
  if (input.signal === 'NOT_RELEVANT' && path.length === 0) {
    throw badInput(
      'signal',
      `"${input.memoryId}" was a seed of recall "${input.recallId}" (it matched by itself, no edge led to it); use NOT_USEFUL to weaken the memory`,
    );
  }
  const changes = await feedbackChanges(
    scope,
    {
      memoryId: memory.id,
      signal: input.signal,
      source: input.source,
      reason: recallReason(input.recallId, input.reason),
    },
    async () => path,
    true,
  );
  if (input.signal !== 'USED') return apply(scope, changes);
  const reason = recallReason(input.recallId, input.reason);
  const learned = await learnedAssociations(scope, record, { ...result, path }, learning, {
    source: input.source,
    reason,
  });
  let cue: string | null = null;
  try {
    if (learned.cueEdge) cue = await fileCue(scope, record, memory.id, learned.cueEdge, learning.learnedPerMemory);
    return await apply(scope, [...changes, ...learned.changes]);
  } catch (error) {
    // The new associations were linked (at weight 0, with no event) and the cue filed for this
    // transaction: take them back.
    if (cue) await scope.store.deleteRecallCue(scope.workspace, cue).catch(() => {});
    for (const id of learned.linked) await scope.store.unlinkEdges(scope.workspace, { id }).catch(() => {});
    throw error;
  }
}
