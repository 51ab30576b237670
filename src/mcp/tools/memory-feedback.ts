import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryFeedbackDocument, type FeedbackSignal } from '../../generated/graphql.js';
import {
  defined,
  memoryRefInput,
  reasonInput,
  toWeightChange,
  weightChangeOutput,
  weightChangeText,
} from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryFeedback = defineTool({
  name: 'memory_feedback',
  title: 'Report whether a recalled memory helped',
  description: [
    'Tell the graph how a memory you recalled worked out, so later recall ranks better. signal:',
    'used (it helped: strengthens the memory and the edges in via_edge_ids, or without via_edge_ids all its unpruned edges);',
    'not_relevant (search or a walk led you here wrongly: weakens the edges in via_edge_ids, or all edges touching the memory; the memory itself is untouched);',
    "not_useful (right place, bad content: weakens only the memory's own weight).",
    'Each change is one small step (the CONSCIOUS tier, 0.01 unless configured), recorded with reason in the weight history; all changes commit together. Returns every change made.',
    'Use it after memory_search / memory_related / memory_traverse results; use memory_weaken for one relation the user corrected, memory_update to fix the content itself.',
    'NOT_FOUND when the memory or a via edge does not exist; BAD_USER_INPUT when a via edge does not touch the memory (nothing changes then).',
  ].join(' '),
  input: z.object({
    memory_id: memoryRefInput('The memory you recalled'),
    signal: z
      .enum(['used', 'not_relevant', 'not_useful'])
      .describe('used: it helped; not_relevant: wrongly routed here; not_useful: right place, bad content.'),
    via_edge_ids: z
      .array(z.string())
      .optional()
      .describe(
        `Ids of the edges that led you to the memory (e.g. from memory_related or memory_traverse paths), at most ${LIMITS.viaEdges}. Omit to affect all its edges.`,
      ),
    reason: reasonInput,
  }),
  output: z.object({ count: z.number(), changes: z.array(weightChangeOutput) }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryFeedbackDocument,
  argumentNames: { memoryId: 'memory_id', signal: 'signal', via: 'via_edge_ids', reason: 'reason' },
  variables: (input) =>
    defined({
      memoryId: input.memory_id,
      signal: input.signal.toUpperCase() as FeedbackSignal,
      via: input.via_edge_ids,
      reason: input.reason,
    }),
  present: (data, input) => {
    const changes = data.feedback.map(toWeightChange);
    const verb = input.signal === 'used' ? 'Strengthened' : 'Weakened';
    const text = changes.length
      ? data.feedback.map((change) => weightChangeText(verb, change)).join('\n')
      : 'Nothing to change (no matching edges).';
    return { structured: { count: changes.length, changes }, text };
  },
});
