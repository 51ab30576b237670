import { MemoryWeakenDocument } from '../../generated/graphql.js';
import {
  EDGE_ALIASES,
  EDGE_NUDGE_ARGUMENT_NAMES,
  edgeNudgeInput,
  edgeNudgeVariables,
  toWeightChange,
  weightChangeOutput,
  weightChangeText,
} from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryWeaken = defineTool({
  name: 'memory_weaken',
  title: 'Weaken a relation after a correction',
  description:
    'The user corrected a recalled relation: lower the edge by amount, clamped at 0; at or below 0.05 it is pruned (hidden, kept). Undo with memory_revert. Prefer it to memory_unlink.',
  input: edgeNudgeInput('0.3'),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryWeakenDocument,
  aliases: EDGE_ALIASES,
  argumentNames: EDGE_NUDGE_ARGUMENT_NAMES,
  variables: edgeNudgeVariables,
  present: (data) => {
    const change = toWeightChange(data.weaken);
    return { structured: change, text: weightChangeText('Weakened', data.weaken) };
  },
});
