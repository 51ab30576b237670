/** Weight changes made from the page: weaken/strengthen an edge, and feedback on a memory. */
import type { ExplorerActions, FeedbackSignal } from './actions.js';
import { type ApiClient, operations } from './api.js';
import { formatWeight } from './dom.js';
import type { StatusLine } from './status.js';
import type { EdgeDetails, WeightChange } from './types.js';
import { plural } from './widgets.js';

export interface WeightsDeps {
  api: ApiClient;
  status: StatusLine;
  actions: ExplorerActions;
  applyChanges(changes: readonly WeightChange[]): void;
  showMemoryDetails(id: string): void;
}

export function createWeights({ api, status, actions, applyChanges, showMemoryDetails }: WeightsDeps) {
  async function adjustEdge(edge: EdgeDetails, how: 'weaken' | 'strengthen', amount: number): Promise<void> {
    if (!(amount > 0 && amount <= 1)) {
      status.show('The amount must be above 0 and at most 1', 'error');
      return;
    }
    const variables = { from: edge.from.id, to: edge.to.id, type: edge.type, amount, reason: 'explorer' };
    const change =
      how === 'weaken'
        ? (await api.run(operations.weaken, variables)).weaken
        : (await api.run(operations.strengthen, variables)).strengthen;
    applyChanges([change]);
    await actions.openEdge(edge.id);
    const verb = how === 'weaken' ? 'Weakened' : 'Strengthened';
    const weights = `${formatWeight(change.previousWeight)} → ${formatWeight(change.newWeight)}`;
    status.show(`${verb} ${edge.type}: ${weights}${change.pruned ? ' (pruned)' : ''}`);
  }

  async function giveFeedback(memoryId: string, signal: FeedbackSignal): Promise<void> {
    const { feedback } = await api.run(operations.feedback, { memoryId, signal, reason: 'explorer' });
    applyChanges(feedback);
    showMemoryDetails(memoryId);
    status.show(`Feedback ${signal.toLowerCase().replace('_', ' ')}: ${plural(feedback.length, 'weight')} changed`);
  }

  return { adjustEdge, giveFeedback };
}
