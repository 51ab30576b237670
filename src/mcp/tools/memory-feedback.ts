import { z } from 'zod';
import { type FeedbackSignal, MemoryFeedbackDocument } from '../../generated/graphql.js';
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
  description:
    'How a recalled memory worked out. used: strengthen it and its edges; not_relevant: weaken the edges only; not_useful: weaken only the memory. The edges: the recorded path of recall_id (from memory_recall), else via_edge_ids, else all its edges. Each change has an event_id.',
  input: z.object({
    memory_id: memoryRefInput('The memory you recalled'),
    signal: z
      .enum(['used', 'not_relevant', 'not_useful'])
      .describe('not_relevant: wrongly routed here; not_useful: right place, bad content.'),
    via_edge_ids: z.array(z.string()).optional().describe('The edges that led you to the memory (each must touch it).'),
    recall_id: z.string().optional().describe('From memory_recall.'),
    reason: reasonInput,
  }),
  output: z.object({ count: z.number(), changes: z.array(weightChangeOutput) }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryFeedbackDocument,
  // Every change is made; only the listing is cut (memory_history lists them all).
  fit: { list: ['feedback'], sizeArgument: 'via_edge_ids', hint: 'memory_history lists every change' },
  argumentNames: {
    memoryId: 'memory_id',
    signal: 'signal',
    via: 'via_edge_ids',
    recallId: 'recall_id',
    reason: 'reason',
  },
  variables: (input) =>
    defined({
      memoryId: input.memory_id,
      signal: input.signal.toUpperCase() as FeedbackSignal,
      via: input.via_edge_ids,
      recallId: input.recall_id,
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
