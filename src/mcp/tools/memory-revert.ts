import { z } from 'zod';
import { MemoryRevertDocument } from '../../generated/graphql.js';
import { toWeightChange, weightChangeOutput, weightChangeText } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryRevert = defineTool({
  name: 'memory_revert',
  title: 'Undo a weight change',
  description:
    'Undo one weight change by event_id (see memory_history): the old weight returns as a new MANUAL event, overwriting later changes (revert newest first). CONFLICT if already reverted.',
  input: z.object({ event_id: z.string().describe('The weight event to undo.') }),
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
