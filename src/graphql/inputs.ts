import * as rules from '../domain/inputs.js';
import { embeddingRule } from '../embeddings/write-embeddings.js';
import { builder } from './builder.js';
import { JSONScalar } from './scalars.js';

export const CreateMemoryInput = builder.inputType('CreateMemoryInput', {
  description: 'A new memory. Only title is required.',
  fields: (t) => ({
    id: t.id({
      required: false,
      validate: rules.memoryId,
      description: 'Choose the id (letters, digits, _ . : / -; at most 128). Default: a new UUIDv7.',
    }),
    key: t.string({
      required: false,
      validate: rules.memoryKey,
      description: 'Optional handle, unique in the workspace (same alphabet as id).',
    }),
    title: t.string({ required: true, validate: rules.title, description: 'Short title, 1..500 characters.' }),
    content: t.string({
      required: false,
      validate: rules.content,
      description: 'Body text, at most 65536 characters.',
    }),
    kind: t.string({
      required: false,
      validate: rules.kind,
      description: 'Free label: fact, hypothesis, experiment, decision ...',
    }),
    tags: t.stringList({
      required: false,
      validate: rules.tags,
      description: 'Free tags, at most 64, each 1..64 characters.',
    }),
    weight: t.float({ required: false, validate: rules.weight, description: 'Initial importance 0..1 (default 0.5).' }),
    metadata: t.field({
      type: JSONScalar,
      required: false,
      validate: rules.metadata,
      description: 'Any JSON, at most 4096 bytes serialized (UTF-8).',
    }),
    embedding: t.floatList({
      required: false,
      validate: embeddingRule,
      description:
        "The memory's vector for recall (docs/vectors.md): finite numbers, at most 4096; every vector of a workspace has the length of its first. Wins over the embeddings endpoint.",
    }),
  }),
});

export const UpdateMemoryInput = builder.inputType('UpdateMemoryInput', {
  description:
    'Fields to change; fields left out keep their value, and null clears an optional field. The weight moves only through feedback.',
  fields: (t) => ({
    key: t.string({ required: false, validate: rules.memoryKey, description: 'New handle (null removes it).' }),
    title: t.string({ required: false, validate: rules.title, description: 'New title (cannot be cleared).' }),
    content: t.string({ required: false, validate: rules.content, description: 'New body text.' }),
    kind: t.string({ required: false, validate: rules.kind, description: 'New kind label.' }),
    tags: t.stringList({ required: false, validate: rules.tags, description: 'New tags, replacing the old ones.' }),
    metadata: t.field({
      type: JSONScalar,
      required: false,
      validate: rules.metadata,
      description: 'New metadata, replacing the old (at most 4096 bytes).',
    }),
    embedding: t.floatList({
      required: false,
      validate: embeddingRule,
      description:
        'A new vector, replacing the old (same rules as in CreateMemoryInput). Without it, new title or content is embedded by the endpoint.',
    }),
  }),
});

export const LinkInput = builder.inputType('LinkInput', {
  description: 'An edge to create, or to confirm if the same (from, to, type) exists.',
  fields: (t) => ({
    from: t.id({ required: true, validate: rules.memoryRef, description: 'Source memory, by id or key.' }),
    to: t.id({
      required: true,
      validate: rules.memoryRef,
      description: 'Target memory, by id or key; must differ from `from`.',
    }),
    type: t.string({
      required: true,
      validate: rules.relationType,
      description: 'Relation type; normalised to UPPER_SNAKE_CASE (caused_by -> CAUSED_BY).',
    }),
    weight: t.float({
      required: false,
      validate: rules.weight,
      description:
        'Weight 0..1. New edge: its starting weight (default 0.5). Existing edge: set to this value with a MANUAL WeightEvent.',
    }),
    metadata: t.field({
      type: JSONScalar,
      required: false,
      validate: rules.metadata,
      description: 'Any JSON (at most 4096 bytes); merged key by key into existing metadata.',
    }),
    reason: t.string({
      required: false,
      validate: rules.reason,
      description: 'Why; recorded on the WeightEvent if the weight changes.',
    }),
  }),
});

export const UnlinkInput = builder.inputType('UnlinkInput', {
  description: 'Which edge to remove: either id, or all of from, to and type.',
  fields: (t) => ({
    id: t.id({ required: false, validate: rules.memoryRef, description: 'The edge id.' }),
    from: t.id({ required: false, validate: rules.memoryRef, description: 'Source memory, by id or key.' }),
    to: t.id({ required: false, validate: rules.memoryRef, description: 'Target memory, by id or key.' }),
    type: t.string({
      required: false,
      validate: rules.relationType,
      description: 'Relation type (normalised to UPPER_SNAKE_CASE).',
    }),
  }),
});
