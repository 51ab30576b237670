import { builder } from './builder.js';

export const DirectionEnum = builder.enumType('Direction', {
  description: 'Which edges of a memory to follow, relative to that memory.',
  values: {
    OUTGOING: { description: 'Edges that start at the memory (memory -[TYPE]-> other).' },
    INCOMING: { description: 'Edges that end at the memory (other -[TYPE]-> memory).' },
    BOTH: { description: 'Edges in either direction; direction is ignored.' },
  } as const,
});

export const AdjustmentSourceEnum = builder.enumType('AdjustmentSource', {
  description:
    'Who asked for a weight change. Deltas per tier are configurable (defaults: AGENT 0.00001, CONSCIOUS 0.01; MANUAL sets values directly and steps 0.1 where a step is needed).',
  values: {
    AGENT: { description: 'An automatic signal from an agent: the smallest step (default ±0.00001).' },
    CONSCIOUS: { description: 'A deliberate feedback signal from a person or agent (default ±0.01).' },
    MANUAL: { description: 'A direct edit by an operator; setEdgeWeight and reverts use it.' },
  } as const,
});

export const FeedbackSignalEnum = builder.enumType('FeedbackSignal', {
  description:
    "USED: the memory helped (strengthen). NOT_RELEVANT: search routed here wrongly (weaken the edges that led here). NOT_USEFUL: right place, bad content (weaken the memory's own weight, not edges).",
  values: {
    USED: { description: 'The memory helped: strengthen it and the edges that led to it.' },
    NOT_RELEVANT: { description: 'Search routed here wrongly: weaken the edges that led here.' },
    NOT_USEFUL: { description: "Right place, bad content: weaken only the memory's own weight." },
  } as const,
});

export const RecallAssociationKindEnum = builder.enumType('RecallAssociationKind', {
  description: 'What joined the two memories of an association on an activation path (docs/recall.md, Associations).',
  values: {
    TERMS: {
      description: 'They share rare terms or names; its weight is the share of term weight they have in common.',
    },
    QUESTION_VECTOR: {
      description:
        "A vector bridge: among the memories holding a name of the first that the question does not say and one of the question's names, the one nearest to the question's vector; its weight is that similarity.",
    },
  } as const,
});
