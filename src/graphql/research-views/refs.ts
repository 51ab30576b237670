import type { ContextBundleView, ContextItemView } from '../../services/context-bundle.js';
import type { ContradictionView } from '../../services/contradictions.js';
import type { ConvergenceView } from '../../services/convergence.js';
import type { EvidenceItemView, EvidenceView } from '../../services/evidence.js';
import { builder } from '../builder.js';

/** Refs of the research-view types, apart from their fields (see types.ts). */
export const EvidenceRef = builder.objectRef<EvidenceView>('Evidence');
export const EvidenceItemRef = builder.objectRef<EvidenceItemView>('EvidenceItem');
export const ContradictionRef = builder.objectRef<ContradictionView>('Contradiction');
export const ConvergenceRef = builder.objectRef<ConvergenceView>('Convergence');
export const ContextBundleRef = builder.objectRef<ContextBundleView>('ContextBundle');
export const ContextItemRef = builder.objectRef<ContextItemView>('ContextItem');
