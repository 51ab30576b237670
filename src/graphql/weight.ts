import { AdjustmentSourceEnum } from './enums.js';
import { EdgeRef, MemoryRef, WeightChangeRef, WeightEventRef } from './refs.js';
import { DateTime } from './scalars.js';

WeightEventRef.implement({
  description: 'One change of an edge or memory weight. History is append-only: a revert is a new event.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable id of the event (UUIDv7); pass it to revertWeightEvent.' }),
    at: t.expose('at', { type: DateTime, description: 'When the change was committed (UTC).' }),
    source: t.field({
      type: AdjustmentSourceEnum,
      description: 'Who asked for the change.',
      resolve: (event) => event.source,
    }),
    edgeId: t.exposeID('edgeId', {
      nullable: true,
      description: 'Id of the edge changed, kept even after the edge is removed.',
    }),
    memoryId: t.exposeID('memoryId', {
      nullable: true,
      description: 'Id of the memory changed, kept even after the memory is removed.',
    }),
    edge: t.field({
      type: EdgeRef,
      nullable: true,
      description: 'The edge changed, for edge-weight events (null if it has been removed since).',
      resolve: (event, _args, ctx) => (event.edgeId === null ? null : ctx.loaders.edge.load(event.edgeId)),
    }),
    memory: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory changed, for memory-weight events (null if it has been removed since).',
      resolve: (event, _args, ctx) => (event.memoryId === null ? null : ctx.loaders.memory.load(event.memoryId)),
    }),
    old: t.exposeFloat('old', { description: 'Weight before the change.' }),
    new: t.exposeFloat('new', {
      description: 'Weight after the change (clamped to the configured floor and ceiling).',
    }),
    delta: t.exposeFloat('delta', { description: 'new - old: what the change really moved, after clamping.' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why, as given by the caller.' }),
    revertedBy: t.exposeID('revertedBy', {
      nullable: true,
      description: 'Id of the event that reverted this one, if any.',
    }),
  }),
});

WeightChangeRef.implement({
  description: 'The result of one weight change, with the event it wrote.',
  fields: (t) => ({
    previousWeight: t.exposeFloat('previousWeight', { description: 'Weight before the change.' }),
    newWeight: t.exposeFloat('newWeight', { description: 'Weight after the change.' }),
    pruned: t.exposeBoolean('pruned', {
      description: 'For edges: whether the edge is now pruned (hidden from walks). Always false for memories.',
    }),
    edge: t.field({
      type: EdgeRef,
      nullable: true,
      description: 'The edge changed, as it is now (null for memory changes).',
      resolve: (change) => change.edge,
    }),
    memory: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory changed, as it is now (null for edge changes).',
      resolve: (change) => change.memory,
    }),
    event: t.field({
      type: WeightEventRef,
      description: 'The WeightEvent written in the same transaction.',
      resolve: (change) => change.event,
    }),
  }),
});
