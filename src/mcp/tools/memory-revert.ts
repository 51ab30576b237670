import { z } from 'zod';
import { MemoryRevertDocument } from '../../generated/graphql.js';
import { toWeightChange, weightChangeOutput, weightChangeText } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryRevert = defineTool({
  name: 'memory_revert',
  title: 'Undo a weight change',
  description: [
    'Undo one weight change: the edge or memory gets back the weight it had before the event named by event_id (from memory_weaken, memory_strengthen, memory_feedback,',
    'memory_reinforce, memory_set_weight or memory_history). The undo is itself a new MANUAL event (history stays append-only) and the old event is marked reverted_by it.',
    'It restores that one value: later changes to the same edge are overwritten, so revert the newest first when several followed. A pruned edge comes back if the old weight was above 0.05.',
    'CONFLICT when the event was already reverted (so repeating the call changes nothing); NOT_FOUND when the event, or the edge or memory it changed, no longer exists.',
  ].join(' '),
  input: z.object({ event_id: z.string().describe('The weight event to undo (event_id of a weight change).') }),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryRevertDocument,
  aliases: { id: 'event_id' },
  argumentNames: { id: 'event_id' },
  variables: (input) => ({ id: input.event_id }),
  present: (data) => {
    const change = toWeightChange(data.revertWeightEvent);
    return { structured: change, text: weightChangeText('Reverted', data.revertWeightEvent) };
  },
});
