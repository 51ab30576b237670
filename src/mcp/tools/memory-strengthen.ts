import { MemoryStrengthenDocument } from '../../generated/graphql.js';
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

export const memoryStrengthen = defineTool({
  name: 'memory_strengthen',
  title: 'Strengthen a confirmed relation',
  description:
    'The user confirmed a recalled relation: raise the edge by amount, clamped at 1; above 0.05 a pruned edge is visible again. Undo with memory_revert.',
  input: edgeNudgeInput('0.01'),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryStrengthenDocument,
  aliases: EDGE_ALIASES,
  argumentNames: EDGE_NUDGE_ARGUMENT_NAMES,
  variables: edgeNudgeVariables,
  present: (data) => {
    const change = toWeightChange(data.strengthen);
    return { structured: change, text: weightChangeText('Strengthened', data.strengthen) };
  },
});
