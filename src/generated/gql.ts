/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query ExploreEdge($id: ID!, $historyLimit: Int = 50) {\n  edge(id: $id) {\n    id\n    type\n    weight\n    pruned\n    createdAt\n    updatedAt\n    lastConfirmedAt\n    from {\n      id\n      title\n    }\n    to {\n      id\n      title\n    }\n    history(limit: $historyLimit) {\n      id\n      at\n      source\n      old\n      new\n      delta\n      reason\n    }\n  }\n}": typeof types.ExploreEdgeDocument,
    "query ExploreNeighborhood($id: ID!, $direction: Direction = BOTH, $types: [String!], $limit: Int = 30) {\n  memory(id: $id) {\n    id\n    key\n    title\n    kind\n    weight\n    content\n    tags\n    createdAt\n    updatedAt\n    neighbors(\n      direction: $direction\n      types: $types\n      includePruned: true\n      limit: $limit\n    ) {\n      direction\n      edge {\n        id\n        type\n        weight\n        pruned\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n      memory {\n        id\n        key\n        title\n        kind\n        weight\n      }\n    }\n  }\n}": typeof types.ExploreNeighborhoodDocument,
    "query ExplorePath($from: ID!, $to: ID!, $maxHops: Int = 4, $types: [String!], $direction: Direction = BOTH) {\n  path(\n    from: $from\n    to: $to\n    maxHops: $maxHops\n    types: $types\n    direction: $direction\n  ) {\n    found\n    hops\n    message\n    steps {\n      memory {\n        id\n        key\n        title\n        kind\n        weight\n      }\n      edgeToNext {\n        id\n        type\n        weight\n        pruned\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n    }\n  }\n}": typeof types.ExplorePathDocument,
    "query ExploreSearch($query: String!, $kinds: [String!], $tags: [String!], $limit: Int, $currentOnly: Boolean = false) {\n  searchMemories(\n    query: $query\n    kinds: $kinds\n    tags: $tags\n    limit: $limit\n    currentOnly: $currentOnly\n  ) {\n    ...MemoryFields\n  }\n}": typeof types.ExploreSearchDocument,
    "fragment MemoryFields on Memory {\n  id\n  key\n  title\n  content\n  kind\n  tags\n  weight\n  metadata\n  createdAt\n  updatedAt\n  supersededBy {\n    id\n  }\n}\n\nfragment MemoryRefFields on Memory {\n  id\n  key\n  title\n}\n\nfragment EdgeFields on Edge {\n  id\n  type\n  from {\n    ...MemoryRefFields\n  }\n  to {\n    ...MemoryRefFields\n  }\n  weight\n  pruned\n  metadata\n  createdAt\n  updatedAt\n  lastConfirmedAt\n}\n\nfragment WeightChangeFields on WeightChange {\n  previousWeight\n  newWeight\n  pruned\n  edge {\n    ...EdgeFields\n  }\n  memory {\n    id\n    key\n    title\n    weight\n  }\n  event {\n    id\n    source\n    reason\n  }\n}\n\nfragment EntityFields on Memory {\n  id\n  key\n  title\n  kind\n  content\n  tags\n  weight\n  metadata\n}\n\nfragment RelationEndFields on Memory {\n  id\n  key\n  title\n  metadata\n}\n\nfragment RelationFields on Edge {\n  id\n  type\n  weight\n  metadata\n  from {\n    ...RelationEndFields\n  }\n  to {\n    ...RelationEndFields\n  }\n}": typeof types.MemoryFieldsFragmentDoc,
    "query MemoryContext($seeds: [ID!]!, $budget: Int, $types: [String!], $minWeight: Float) {\n  context(seeds: $seeds, budget: $budget, types: $types, minWeight: $minWeight) {\n    truncated\n    items {\n      role\n      score\n      memory {\n        ...MemoryFields\n      }\n    }\n    edges {\n      id\n      type\n      weight\n      from {\n        id\n      }\n      to {\n        id\n      }\n    }\n    contradictions {\n      kind\n      strength\n      a {\n        id\n      }\n      b {\n        id\n      }\n      edge {\n        id\n      }\n    }\n  }\n}": typeof types.MemoryContextDocument,
    "query MemoryContradictions($first: Int, $after: String, $minWeight: Float, $kinds: [ContradictionKind!]) {\n  contradictionsConnection(\n    first: $first\n    after: $after\n    minWeight: $minWeight\n    kinds: $kinds\n  ) {\n    edges {\n      cursor\n      node {\n        kind\n        strength\n        resolved\n        a {\n          ...MemoryRefFields\n          kind\n        }\n        b {\n          ...MemoryRefFields\n          kind\n        }\n        edge {\n          id\n        }\n        edges {\n          id\n          type\n          weight\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n    }\n  }\n}": typeof types.MemoryContradictionsDocument,
    "mutation MemoryCreate($input: CreateMemoryInput!) {\n  createMemory(input: $input) {\n    ...MemoryFields\n  }\n}": typeof types.MemoryCreateDocument,
    "mutation MemoryDelete($id: ID!) {\n  deleteMemory(id: $id) {\n    id\n    deleted\n    edgesRemoved\n  }\n}": typeof types.MemoryDeleteDocument,
    "query MemoryEvidence($id: ID!, $minWeight: Float, $maxDepth: Int) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    evidence(minWeight: $minWeight, maxDepth: $maxDepth) {\n      score\n      supporting {\n        relation\n        weight\n        memory {\n          ...MemoryRefFields\n          kind\n        }\n        via {\n          id\n          type\n          weight\n          from {\n            id\n          }\n          to {\n            id\n          }\n        }\n      }\n      contradicting {\n        relation\n        weight\n        memory {\n          ...MemoryRefFields\n          kind\n        }\n        via {\n          id\n          type\n          weight\n          from {\n            id\n          }\n          to {\n            id\n          }\n        }\n      }\n    }\n  }\n}": typeof types.MemoryEvidenceDocument,
    "mutation MemoryFeedback($memoryId: ID!, $signal: FeedbackSignal!, $via: [ID!], $recallId: ID, $reason: String) {\n  feedback(\n    memoryId: $memoryId\n    signal: $signal\n    via: $via\n    recallId: $recallId\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}": typeof types.MemoryFeedbackDocument,
    "query MemoryGet($id: ID!, $neighborLimit: Int = 10, $currentOnly: Boolean = false) {\n  memory(id: $id) {\n    ...MemoryWithNeighbors\n    current @include(if: $currentOnly) {\n      ...MemoryWithNeighbors\n    }\n  }\n}\n\nfragment MemoryWithNeighbors on Memory {\n  ...MemoryFields\n  neighbors(limit: $neighborLimit) {\n    direction\n    edge {\n      id\n      type\n      weight\n      pruned\n    }\n    memory {\n      ...MemoryRefFields\n      kind\n    }\n  }\n}": typeof types.MemoryGetDocument,
    "query MemoryHistory($edgeId: ID, $memoryId: ID, $limit: Int = 20) {\n  weightEvents(edgeId: $edgeId, memoryId: $memoryId, limit: $limit) {\n    id\n    at\n    source\n    edgeId\n    memoryId\n    old\n    new\n    delta\n    reason\n    revertedBy\n  }\n}": typeof types.MemoryHistoryDocument,
    "mutation MemoryLink($input: LinkInput!) {\n  link(input: $input) {\n    ...EdgeFields\n  }\n}": typeof types.MemoryLinkDocument,
    "query MemoryPath($from: ID!, $to: ID!, $maxHops: Int, $types: [String!], $direction: Direction, $currentOnly: Boolean = false) {\n  path(\n    from: $from\n    to: $to\n    maxHops: $maxHops\n    types: $types\n    direction: $direction\n    currentOnly: $currentOnly\n  ) {\n    found\n    hops\n    message\n    steps {\n      memory {\n        ...MemoryRefFields\n      }\n      edgeToNext {\n        id\n        type\n        weight\n        from {\n          id\n        }\n      }\n    }\n  }\n}": typeof types.MemoryPathDocument,
    "query MemoryRecall($query: String, $seeds: [ID!], $limit: Int, $maxDepth: Int, $types: [String!], $minWeight: Float, $currentOnly: Boolean = false) {\n  recall(\n    query: $query\n    seeds: $seeds\n    limit: $limit\n    maxDepth: $maxDepth\n    types: $types\n    minWeight: $minWeight\n    currentOnly: $currentOnly\n  ) {\n    id\n    query\n    expiresAt\n    truncated\n    results {\n      score\n      lexical\n      vector\n      graph\n      seed\n      memory {\n        ...MemoryFields\n      }\n      path {\n        id\n        type\n        weight\n        pruned\n        from {\n          ...MemoryRefFields\n          kind\n          weight\n        }\n        to {\n          ...MemoryRefFields\n          kind\n          weight\n        }\n      }\n    }\n  }\n}": typeof types.MemoryRecallDocument,
    "mutation MemoryReinforce($ids: [ID!]!, $reason: String) {\n  reinforceCoRetrieval(ids: $ids, reason: $reason) {\n    ...WeightChangeFields\n  }\n}": typeof types.MemoryReinforceDocument,
    "query MemoryRelated($id: ID!, $direction: Direction, $types: [String!], $includePruned: Boolean, $limit: Int) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    neighbors(\n      direction: $direction\n      types: $types\n      includePruned: $includePruned\n      limit: $limit\n    ) {\n      direction\n      edge {\n        ...EdgeFields\n      }\n      memory {\n        ...MemoryFields\n      }\n    }\n  }\n}": typeof types.MemoryRelatedDocument,
    "mutation MemoryRevert($id: ID!) {\n  revertWeightEvent(id: $id) {\n    ...WeightChangeFields\n  }\n}": typeof types.MemoryRevertDocument,
    "query MemorySearch($query: String!, $kinds: [String!], $tags: [String!], $first: Int, $after: String, $currentOnly: Boolean = false) {\n  searchMemoriesConnection(\n    query: $query\n    kinds: $kinds\n    tags: $tags\n    first: $first\n    after: $after\n    currentOnly: $currentOnly\n  ) {\n    edges {\n      cursor\n      node {\n        ...MemoryFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n    }\n  }\n}": typeof types.MemorySearchDocument,
    "mutation MemorySetWeight($id: ID!, $weight: Float!, $reason: String) {\n  setEdgeWeight(id: $id, weight: $weight, reason: $reason) {\n    ...WeightChangeFields\n  }\n}": typeof types.MemorySetWeightDocument,
    "mutation MemoryStrengthen($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {\n  strengthen(\n    edgeId: $edgeId\n    from: $from\n    to: $to\n    type: $type\n    amount: $amount\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}": typeof types.MemoryStrengthenDocument,
    "query MemoryTraverse($id: ID!, $maxDepth: Int, $types: [String!], $direction: Direction, $limit: Int, $currentOnly: Boolean = false) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    traverse(\n      maxDepth: $maxDepth\n      types: $types\n      direction: $direction\n      limit: $limit\n      currentOnly: $currentOnly\n    ) {\n      depth\n      memory {\n        ...MemoryFields\n      }\n      via {\n        id\n        type\n        weight\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n    }\n  }\n}": typeof types.MemoryTraverseDocument,
    "mutation MemoryUnlink($input: UnlinkInput!) {\n  unlink(input: $input) {\n    removed\n    edges {\n      ...EdgeFields\n    }\n  }\n}": typeof types.MemoryUnlinkDocument,
    "mutation MemoryUpdate($id: ID!, $input: UpdateMemoryInput!) {\n  updateMemory(id: $id, input: $input) {\n    ...MemoryFields\n  }\n}": typeof types.MemoryUpdateDocument,
    "mutation MemoryWeaken($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {\n  weaken(\n    edgeId: $edgeId\n    from: $from\n    to: $to\n    type: $type\n    amount: $amount\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}": typeof types.MemoryWeakenDocument,
    "query MemoryWriteLookup($ids: [ID!]!) {\n  memories(ids: $ids) {\n    id\n    key\n    title\n    content\n    kind\n    tags\n    metadata\n    weight\n    neighbors(direction: OUTGOING, includePruned: true, limit: 20) {\n      edge {\n        type\n        weight\n        metadata\n        to {\n          id\n        }\n      }\n    }\n  }\n}\n\nmutation MemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {\n  importGraph(memories: $memories, edges: $edges) {\n    memories\n    edges\n  }\n}": typeof types.MemoryWriteLookupDocument,
    "query RelationTypes {\n  relationTypes {\n    name\n    description\n    inverse\n  }\n}": typeof types.RelationTypesDocument,
    "mutation ServerMemoryDeleteEntity($id: ID!) {\n  deleteMemory(id: $id) {\n    deleted\n  }\n}": typeof types.ServerMemoryDeleteEntityDocument,
    "query ServerMemoryEdgesBetween($from: ID!, $to: ID!, $types: [String!]) {\n  edgesBetween(from: $from, to: $to, types: $types) {\n    ...RelationFields\n  }\n}": typeof types.ServerMemoryEdgesBetweenDocument,
    "query ServerMemoryEntityPage($first: Int!, $after: String) {\n  memoriesConnection(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        ...EntityFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": typeof types.ServerMemoryEntityPageDocument,
    "query ServerMemoryLookup($ids: [ID!]!) {\n  memories(ids: $ids) {\n    ...EntityFields\n  }\n}": typeof types.ServerMemoryLookupDocument,
    "query ServerMemoryRelationPage($first: Int!, $after: String) {\n  edgesConnection(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        ...RelationFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": typeof types.ServerMemoryRelationPageDocument,
    "query ServerMemoryTouching($id: ID!) {\n  memory(id: $id) {\n    id\n    neighbors(direction: BOTH, includePruned: true, limit: 100) {\n      edge {\n        ...RelationFields\n      }\n    }\n  }\n}": typeof types.ServerMemoryTouchingDocument,
    "mutation ServerMemoryUnlink($id: ID!) {\n  unlink(input: {id: $id}) {\n    removed\n  }\n}": typeof types.ServerMemoryUnlinkDocument,
    "mutation ServerMemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {\n  importGraph(memories: $memories, edges: $edges) {\n    memories\n    edges\n  }\n}": typeof types.ServerMemoryWriteDocument,
};
const documents: Documents = {
    "query ExploreEdge($id: ID!, $historyLimit: Int = 50) {\n  edge(id: $id) {\n    id\n    type\n    weight\n    pruned\n    createdAt\n    updatedAt\n    lastConfirmedAt\n    from {\n      id\n      title\n    }\n    to {\n      id\n      title\n    }\n    history(limit: $historyLimit) {\n      id\n      at\n      source\n      old\n      new\n      delta\n      reason\n    }\n  }\n}": types.ExploreEdgeDocument,
    "query ExploreNeighborhood($id: ID!, $direction: Direction = BOTH, $types: [String!], $limit: Int = 30) {\n  memory(id: $id) {\n    id\n    key\n    title\n    kind\n    weight\n    content\n    tags\n    createdAt\n    updatedAt\n    neighbors(\n      direction: $direction\n      types: $types\n      includePruned: true\n      limit: $limit\n    ) {\n      direction\n      edge {\n        id\n        type\n        weight\n        pruned\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n      memory {\n        id\n        key\n        title\n        kind\n        weight\n      }\n    }\n  }\n}": types.ExploreNeighborhoodDocument,
    "query ExplorePath($from: ID!, $to: ID!, $maxHops: Int = 4, $types: [String!], $direction: Direction = BOTH) {\n  path(\n    from: $from\n    to: $to\n    maxHops: $maxHops\n    types: $types\n    direction: $direction\n  ) {\n    found\n    hops\n    message\n    steps {\n      memory {\n        id\n        key\n        title\n        kind\n        weight\n      }\n      edgeToNext {\n        id\n        type\n        weight\n        pruned\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n    }\n  }\n}": types.ExplorePathDocument,
    "query ExploreSearch($query: String!, $kinds: [String!], $tags: [String!], $limit: Int, $currentOnly: Boolean = false) {\n  searchMemories(\n    query: $query\n    kinds: $kinds\n    tags: $tags\n    limit: $limit\n    currentOnly: $currentOnly\n  ) {\n    ...MemoryFields\n  }\n}": types.ExploreSearchDocument,
    "fragment MemoryFields on Memory {\n  id\n  key\n  title\n  content\n  kind\n  tags\n  weight\n  metadata\n  createdAt\n  updatedAt\n  supersededBy {\n    id\n  }\n}\n\nfragment MemoryRefFields on Memory {\n  id\n  key\n  title\n}\n\nfragment EdgeFields on Edge {\n  id\n  type\n  from {\n    ...MemoryRefFields\n  }\n  to {\n    ...MemoryRefFields\n  }\n  weight\n  pruned\n  metadata\n  createdAt\n  updatedAt\n  lastConfirmedAt\n}\n\nfragment WeightChangeFields on WeightChange {\n  previousWeight\n  newWeight\n  pruned\n  edge {\n    ...EdgeFields\n  }\n  memory {\n    id\n    key\n    title\n    weight\n  }\n  event {\n    id\n    source\n    reason\n  }\n}\n\nfragment EntityFields on Memory {\n  id\n  key\n  title\n  kind\n  content\n  tags\n  weight\n  metadata\n}\n\nfragment RelationEndFields on Memory {\n  id\n  key\n  title\n  metadata\n}\n\nfragment RelationFields on Edge {\n  id\n  type\n  weight\n  metadata\n  from {\n    ...RelationEndFields\n  }\n  to {\n    ...RelationEndFields\n  }\n}": types.MemoryFieldsFragmentDoc,
    "query MemoryContext($seeds: [ID!]!, $budget: Int, $types: [String!], $minWeight: Float) {\n  context(seeds: $seeds, budget: $budget, types: $types, minWeight: $minWeight) {\n    truncated\n    items {\n      role\n      score\n      memory {\n        ...MemoryFields\n      }\n    }\n    edges {\n      id\n      type\n      weight\n      from {\n        id\n      }\n      to {\n        id\n      }\n    }\n    contradictions {\n      kind\n      strength\n      a {\n        id\n      }\n      b {\n        id\n      }\n      edge {\n        id\n      }\n    }\n  }\n}": types.MemoryContextDocument,
    "query MemoryContradictions($first: Int, $after: String, $minWeight: Float, $kinds: [ContradictionKind!]) {\n  contradictionsConnection(\n    first: $first\n    after: $after\n    minWeight: $minWeight\n    kinds: $kinds\n  ) {\n    edges {\n      cursor\n      node {\n        kind\n        strength\n        resolved\n        a {\n          ...MemoryRefFields\n          kind\n        }\n        b {\n          ...MemoryRefFields\n          kind\n        }\n        edge {\n          id\n        }\n        edges {\n          id\n          type\n          weight\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n    }\n  }\n}": types.MemoryContradictionsDocument,
    "mutation MemoryCreate($input: CreateMemoryInput!) {\n  createMemory(input: $input) {\n    ...MemoryFields\n  }\n}": types.MemoryCreateDocument,
    "mutation MemoryDelete($id: ID!) {\n  deleteMemory(id: $id) {\n    id\n    deleted\n    edgesRemoved\n  }\n}": types.MemoryDeleteDocument,
    "query MemoryEvidence($id: ID!, $minWeight: Float, $maxDepth: Int) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    evidence(minWeight: $minWeight, maxDepth: $maxDepth) {\n      score\n      supporting {\n        relation\n        weight\n        memory {\n          ...MemoryRefFields\n          kind\n        }\n        via {\n          id\n          type\n          weight\n          from {\n            id\n          }\n          to {\n            id\n          }\n        }\n      }\n      contradicting {\n        relation\n        weight\n        memory {\n          ...MemoryRefFields\n          kind\n        }\n        via {\n          id\n          type\n          weight\n          from {\n            id\n          }\n          to {\n            id\n          }\n        }\n      }\n    }\n  }\n}": types.MemoryEvidenceDocument,
    "mutation MemoryFeedback($memoryId: ID!, $signal: FeedbackSignal!, $via: [ID!], $recallId: ID, $reason: String) {\n  feedback(\n    memoryId: $memoryId\n    signal: $signal\n    via: $via\n    recallId: $recallId\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}": types.MemoryFeedbackDocument,
    "query MemoryGet($id: ID!, $neighborLimit: Int = 10, $currentOnly: Boolean = false) {\n  memory(id: $id) {\n    ...MemoryWithNeighbors\n    current @include(if: $currentOnly) {\n      ...MemoryWithNeighbors\n    }\n  }\n}\n\nfragment MemoryWithNeighbors on Memory {\n  ...MemoryFields\n  neighbors(limit: $neighborLimit) {\n    direction\n    edge {\n      id\n      type\n      weight\n      pruned\n    }\n    memory {\n      ...MemoryRefFields\n      kind\n    }\n  }\n}": types.MemoryGetDocument,
    "query MemoryHistory($edgeId: ID, $memoryId: ID, $limit: Int = 20) {\n  weightEvents(edgeId: $edgeId, memoryId: $memoryId, limit: $limit) {\n    id\n    at\n    source\n    edgeId\n    memoryId\n    old\n    new\n    delta\n    reason\n    revertedBy\n  }\n}": types.MemoryHistoryDocument,
    "mutation MemoryLink($input: LinkInput!) {\n  link(input: $input) {\n    ...EdgeFields\n  }\n}": types.MemoryLinkDocument,
    "query MemoryPath($from: ID!, $to: ID!, $maxHops: Int, $types: [String!], $direction: Direction, $currentOnly: Boolean = false) {\n  path(\n    from: $from\n    to: $to\n    maxHops: $maxHops\n    types: $types\n    direction: $direction\n    currentOnly: $currentOnly\n  ) {\n    found\n    hops\n    message\n    steps {\n      memory {\n        ...MemoryRefFields\n      }\n      edgeToNext {\n        id\n        type\n        weight\n        from {\n          id\n        }\n      }\n    }\n  }\n}": types.MemoryPathDocument,
    "query MemoryRecall($query: String, $seeds: [ID!], $limit: Int, $maxDepth: Int, $types: [String!], $minWeight: Float, $currentOnly: Boolean = false) {\n  recall(\n    query: $query\n    seeds: $seeds\n    limit: $limit\n    maxDepth: $maxDepth\n    types: $types\n    minWeight: $minWeight\n    currentOnly: $currentOnly\n  ) {\n    id\n    query\n    expiresAt\n    truncated\n    results {\n      score\n      lexical\n      vector\n      graph\n      seed\n      memory {\n        ...MemoryFields\n      }\n      path {\n        id\n        type\n        weight\n        pruned\n        from {\n          ...MemoryRefFields\n          kind\n          weight\n        }\n        to {\n          ...MemoryRefFields\n          kind\n          weight\n        }\n      }\n    }\n  }\n}": types.MemoryRecallDocument,
    "mutation MemoryReinforce($ids: [ID!]!, $reason: String) {\n  reinforceCoRetrieval(ids: $ids, reason: $reason) {\n    ...WeightChangeFields\n  }\n}": types.MemoryReinforceDocument,
    "query MemoryRelated($id: ID!, $direction: Direction, $types: [String!], $includePruned: Boolean, $limit: Int) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    neighbors(\n      direction: $direction\n      types: $types\n      includePruned: $includePruned\n      limit: $limit\n    ) {\n      direction\n      edge {\n        ...EdgeFields\n      }\n      memory {\n        ...MemoryFields\n      }\n    }\n  }\n}": types.MemoryRelatedDocument,
    "mutation MemoryRevert($id: ID!) {\n  revertWeightEvent(id: $id) {\n    ...WeightChangeFields\n  }\n}": types.MemoryRevertDocument,
    "query MemorySearch($query: String!, $kinds: [String!], $tags: [String!], $first: Int, $after: String, $currentOnly: Boolean = false) {\n  searchMemoriesConnection(\n    query: $query\n    kinds: $kinds\n    tags: $tags\n    first: $first\n    after: $after\n    currentOnly: $currentOnly\n  ) {\n    edges {\n      cursor\n      node {\n        ...MemoryFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n    }\n  }\n}": types.MemorySearchDocument,
    "mutation MemorySetWeight($id: ID!, $weight: Float!, $reason: String) {\n  setEdgeWeight(id: $id, weight: $weight, reason: $reason) {\n    ...WeightChangeFields\n  }\n}": types.MemorySetWeightDocument,
    "mutation MemoryStrengthen($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {\n  strengthen(\n    edgeId: $edgeId\n    from: $from\n    to: $to\n    type: $type\n    amount: $amount\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}": types.MemoryStrengthenDocument,
    "query MemoryTraverse($id: ID!, $maxDepth: Int, $types: [String!], $direction: Direction, $limit: Int, $currentOnly: Boolean = false) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    traverse(\n      maxDepth: $maxDepth\n      types: $types\n      direction: $direction\n      limit: $limit\n      currentOnly: $currentOnly\n    ) {\n      depth\n      memory {\n        ...MemoryFields\n      }\n      via {\n        id\n        type\n        weight\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n    }\n  }\n}": types.MemoryTraverseDocument,
    "mutation MemoryUnlink($input: UnlinkInput!) {\n  unlink(input: $input) {\n    removed\n    edges {\n      ...EdgeFields\n    }\n  }\n}": types.MemoryUnlinkDocument,
    "mutation MemoryUpdate($id: ID!, $input: UpdateMemoryInput!) {\n  updateMemory(id: $id, input: $input) {\n    ...MemoryFields\n  }\n}": types.MemoryUpdateDocument,
    "mutation MemoryWeaken($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {\n  weaken(\n    edgeId: $edgeId\n    from: $from\n    to: $to\n    type: $type\n    amount: $amount\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}": types.MemoryWeakenDocument,
    "query MemoryWriteLookup($ids: [ID!]!) {\n  memories(ids: $ids) {\n    id\n    key\n    title\n    content\n    kind\n    tags\n    metadata\n    weight\n    neighbors(direction: OUTGOING, includePruned: true, limit: 20) {\n      edge {\n        type\n        weight\n        metadata\n        to {\n          id\n        }\n      }\n    }\n  }\n}\n\nmutation MemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {\n  importGraph(memories: $memories, edges: $edges) {\n    memories\n    edges\n  }\n}": types.MemoryWriteLookupDocument,
    "query RelationTypes {\n  relationTypes {\n    name\n    description\n    inverse\n  }\n}": types.RelationTypesDocument,
    "mutation ServerMemoryDeleteEntity($id: ID!) {\n  deleteMemory(id: $id) {\n    deleted\n  }\n}": types.ServerMemoryDeleteEntityDocument,
    "query ServerMemoryEdgesBetween($from: ID!, $to: ID!, $types: [String!]) {\n  edgesBetween(from: $from, to: $to, types: $types) {\n    ...RelationFields\n  }\n}": types.ServerMemoryEdgesBetweenDocument,
    "query ServerMemoryEntityPage($first: Int!, $after: String) {\n  memoriesConnection(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        ...EntityFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": types.ServerMemoryEntityPageDocument,
    "query ServerMemoryLookup($ids: [ID!]!) {\n  memories(ids: $ids) {\n    ...EntityFields\n  }\n}": types.ServerMemoryLookupDocument,
    "query ServerMemoryRelationPage($first: Int!, $after: String) {\n  edgesConnection(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        ...RelationFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": types.ServerMemoryRelationPageDocument,
    "query ServerMemoryTouching($id: ID!) {\n  memory(id: $id) {\n    id\n    neighbors(direction: BOTH, includePruned: true, limit: 100) {\n      edge {\n        ...RelationFields\n      }\n    }\n  }\n}": types.ServerMemoryTouchingDocument,
    "mutation ServerMemoryUnlink($id: ID!) {\n  unlink(input: {id: $id}) {\n    removed\n  }\n}": types.ServerMemoryUnlinkDocument,
    "mutation ServerMemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {\n  importGraph(memories: $memories, edges: $edges) {\n    memories\n    edges\n  }\n}": types.ServerMemoryWriteDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ExploreEdge($id: ID!, $historyLimit: Int = 50) {\n  edge(id: $id) {\n    id\n    type\n    weight\n    pruned\n    createdAt\n    updatedAt\n    lastConfirmedAt\n    from {\n      id\n      title\n    }\n    to {\n      id\n      title\n    }\n    history(limit: $historyLimit) {\n      id\n      at\n      source\n      old\n      new\n      delta\n      reason\n    }\n  }\n}"): typeof import('./graphql.js').ExploreEdgeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ExploreNeighborhood($id: ID!, $direction: Direction = BOTH, $types: [String!], $limit: Int = 30) {\n  memory(id: $id) {\n    id\n    key\n    title\n    kind\n    weight\n    content\n    tags\n    createdAt\n    updatedAt\n    neighbors(\n      direction: $direction\n      types: $types\n      includePruned: true\n      limit: $limit\n    ) {\n      direction\n      edge {\n        id\n        type\n        weight\n        pruned\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n      memory {\n        id\n        key\n        title\n        kind\n        weight\n      }\n    }\n  }\n}"): typeof import('./graphql.js').ExploreNeighborhoodDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ExplorePath($from: ID!, $to: ID!, $maxHops: Int = 4, $types: [String!], $direction: Direction = BOTH) {\n  path(\n    from: $from\n    to: $to\n    maxHops: $maxHops\n    types: $types\n    direction: $direction\n  ) {\n    found\n    hops\n    message\n    steps {\n      memory {\n        id\n        key\n        title\n        kind\n        weight\n      }\n      edgeToNext {\n        id\n        type\n        weight\n        pruned\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n    }\n  }\n}"): typeof import('./graphql.js').ExplorePathDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ExploreSearch($query: String!, $kinds: [String!], $tags: [String!], $limit: Int, $currentOnly: Boolean = false) {\n  searchMemories(\n    query: $query\n    kinds: $kinds\n    tags: $tags\n    limit: $limit\n    currentOnly: $currentOnly\n  ) {\n    ...MemoryFields\n  }\n}"): typeof import('./graphql.js').ExploreSearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment MemoryFields on Memory {\n  id\n  key\n  title\n  content\n  kind\n  tags\n  weight\n  metadata\n  createdAt\n  updatedAt\n  supersededBy {\n    id\n  }\n}\n\nfragment MemoryRefFields on Memory {\n  id\n  key\n  title\n}\n\nfragment EdgeFields on Edge {\n  id\n  type\n  from {\n    ...MemoryRefFields\n  }\n  to {\n    ...MemoryRefFields\n  }\n  weight\n  pruned\n  metadata\n  createdAt\n  updatedAt\n  lastConfirmedAt\n}\n\nfragment WeightChangeFields on WeightChange {\n  previousWeight\n  newWeight\n  pruned\n  edge {\n    ...EdgeFields\n  }\n  memory {\n    id\n    key\n    title\n    weight\n  }\n  event {\n    id\n    source\n    reason\n  }\n}\n\nfragment EntityFields on Memory {\n  id\n  key\n  title\n  kind\n  content\n  tags\n  weight\n  metadata\n}\n\nfragment RelationEndFields on Memory {\n  id\n  key\n  title\n  metadata\n}\n\nfragment RelationFields on Edge {\n  id\n  type\n  weight\n  metadata\n  from {\n    ...RelationEndFields\n  }\n  to {\n    ...RelationEndFields\n  }\n}"): typeof import('./graphql.js').MemoryFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryContext($seeds: [ID!]!, $budget: Int, $types: [String!], $minWeight: Float) {\n  context(seeds: $seeds, budget: $budget, types: $types, minWeight: $minWeight) {\n    truncated\n    items {\n      role\n      score\n      memory {\n        ...MemoryFields\n      }\n    }\n    edges {\n      id\n      type\n      weight\n      from {\n        id\n      }\n      to {\n        id\n      }\n    }\n    contradictions {\n      kind\n      strength\n      a {\n        id\n      }\n      b {\n        id\n      }\n      edge {\n        id\n      }\n    }\n  }\n}"): typeof import('./graphql.js').MemoryContextDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryContradictions($first: Int, $after: String, $minWeight: Float, $kinds: [ContradictionKind!]) {\n  contradictionsConnection(\n    first: $first\n    after: $after\n    minWeight: $minWeight\n    kinds: $kinds\n  ) {\n    edges {\n      cursor\n      node {\n        kind\n        strength\n        resolved\n        a {\n          ...MemoryRefFields\n          kind\n        }\n        b {\n          ...MemoryRefFields\n          kind\n        }\n        edge {\n          id\n        }\n        edges {\n          id\n          type\n          weight\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n    }\n  }\n}"): typeof import('./graphql.js').MemoryContradictionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryCreate($input: CreateMemoryInput!) {\n  createMemory(input: $input) {\n    ...MemoryFields\n  }\n}"): typeof import('./graphql.js').MemoryCreateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryDelete($id: ID!) {\n  deleteMemory(id: $id) {\n    id\n    deleted\n    edgesRemoved\n  }\n}"): typeof import('./graphql.js').MemoryDeleteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryEvidence($id: ID!, $minWeight: Float, $maxDepth: Int) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    evidence(minWeight: $minWeight, maxDepth: $maxDepth) {\n      score\n      supporting {\n        relation\n        weight\n        memory {\n          ...MemoryRefFields\n          kind\n        }\n        via {\n          id\n          type\n          weight\n          from {\n            id\n          }\n          to {\n            id\n          }\n        }\n      }\n      contradicting {\n        relation\n        weight\n        memory {\n          ...MemoryRefFields\n          kind\n        }\n        via {\n          id\n          type\n          weight\n          from {\n            id\n          }\n          to {\n            id\n          }\n        }\n      }\n    }\n  }\n}"): typeof import('./graphql.js').MemoryEvidenceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryFeedback($memoryId: ID!, $signal: FeedbackSignal!, $via: [ID!], $recallId: ID, $reason: String) {\n  feedback(\n    memoryId: $memoryId\n    signal: $signal\n    via: $via\n    recallId: $recallId\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}"): typeof import('./graphql.js').MemoryFeedbackDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryGet($id: ID!, $neighborLimit: Int = 10, $currentOnly: Boolean = false) {\n  memory(id: $id) {\n    ...MemoryWithNeighbors\n    current @include(if: $currentOnly) {\n      ...MemoryWithNeighbors\n    }\n  }\n}\n\nfragment MemoryWithNeighbors on Memory {\n  ...MemoryFields\n  neighbors(limit: $neighborLimit) {\n    direction\n    edge {\n      id\n      type\n      weight\n      pruned\n    }\n    memory {\n      ...MemoryRefFields\n      kind\n    }\n  }\n}"): typeof import('./graphql.js').MemoryGetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryHistory($edgeId: ID, $memoryId: ID, $limit: Int = 20) {\n  weightEvents(edgeId: $edgeId, memoryId: $memoryId, limit: $limit) {\n    id\n    at\n    source\n    edgeId\n    memoryId\n    old\n    new\n    delta\n    reason\n    revertedBy\n  }\n}"): typeof import('./graphql.js').MemoryHistoryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryLink($input: LinkInput!) {\n  link(input: $input) {\n    ...EdgeFields\n  }\n}"): typeof import('./graphql.js').MemoryLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryPath($from: ID!, $to: ID!, $maxHops: Int, $types: [String!], $direction: Direction, $currentOnly: Boolean = false) {\n  path(\n    from: $from\n    to: $to\n    maxHops: $maxHops\n    types: $types\n    direction: $direction\n    currentOnly: $currentOnly\n  ) {\n    found\n    hops\n    message\n    steps {\n      memory {\n        ...MemoryRefFields\n      }\n      edgeToNext {\n        id\n        type\n        weight\n        from {\n          id\n        }\n      }\n    }\n  }\n}"): typeof import('./graphql.js').MemoryPathDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryRecall($query: String, $seeds: [ID!], $limit: Int, $maxDepth: Int, $types: [String!], $minWeight: Float, $currentOnly: Boolean = false) {\n  recall(\n    query: $query\n    seeds: $seeds\n    limit: $limit\n    maxDepth: $maxDepth\n    types: $types\n    minWeight: $minWeight\n    currentOnly: $currentOnly\n  ) {\n    id\n    query\n    expiresAt\n    truncated\n    results {\n      score\n      lexical\n      vector\n      graph\n      seed\n      memory {\n        ...MemoryFields\n      }\n      path {\n        id\n        type\n        weight\n        pruned\n        from {\n          ...MemoryRefFields\n          kind\n          weight\n        }\n        to {\n          ...MemoryRefFields\n          kind\n          weight\n        }\n      }\n    }\n  }\n}"): typeof import('./graphql.js').MemoryRecallDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryReinforce($ids: [ID!]!, $reason: String) {\n  reinforceCoRetrieval(ids: $ids, reason: $reason) {\n    ...WeightChangeFields\n  }\n}"): typeof import('./graphql.js').MemoryReinforceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryRelated($id: ID!, $direction: Direction, $types: [String!], $includePruned: Boolean, $limit: Int) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    neighbors(\n      direction: $direction\n      types: $types\n      includePruned: $includePruned\n      limit: $limit\n    ) {\n      direction\n      edge {\n        ...EdgeFields\n      }\n      memory {\n        ...MemoryFields\n      }\n    }\n  }\n}"): typeof import('./graphql.js').MemoryRelatedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryRevert($id: ID!) {\n  revertWeightEvent(id: $id) {\n    ...WeightChangeFields\n  }\n}"): typeof import('./graphql.js').MemoryRevertDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemorySearch($query: String!, $kinds: [String!], $tags: [String!], $first: Int, $after: String, $currentOnly: Boolean = false) {\n  searchMemoriesConnection(\n    query: $query\n    kinds: $kinds\n    tags: $tags\n    first: $first\n    after: $after\n    currentOnly: $currentOnly\n  ) {\n    edges {\n      cursor\n      node {\n        ...MemoryFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n    }\n  }\n}"): typeof import('./graphql.js').MemorySearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemorySetWeight($id: ID!, $weight: Float!, $reason: String) {\n  setEdgeWeight(id: $id, weight: $weight, reason: $reason) {\n    ...WeightChangeFields\n  }\n}"): typeof import('./graphql.js').MemorySetWeightDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryStrengthen($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {\n  strengthen(\n    edgeId: $edgeId\n    from: $from\n    to: $to\n    type: $type\n    amount: $amount\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}"): typeof import('./graphql.js').MemoryStrengthenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryTraverse($id: ID!, $maxDepth: Int, $types: [String!], $direction: Direction, $limit: Int, $currentOnly: Boolean = false) {\n  memory(id: $id) {\n    ...MemoryRefFields\n    traverse(\n      maxDepth: $maxDepth\n      types: $types\n      direction: $direction\n      limit: $limit\n      currentOnly: $currentOnly\n    ) {\n      depth\n      memory {\n        ...MemoryFields\n      }\n      via {\n        id\n        type\n        weight\n        from {\n          id\n        }\n        to {\n          id\n        }\n      }\n    }\n  }\n}"): typeof import('./graphql.js').MemoryTraverseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryUnlink($input: UnlinkInput!) {\n  unlink(input: $input) {\n    removed\n    edges {\n      ...EdgeFields\n    }\n  }\n}"): typeof import('./graphql.js').MemoryUnlinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryUpdate($id: ID!, $input: UpdateMemoryInput!) {\n  updateMemory(id: $id, input: $input) {\n    ...MemoryFields\n  }\n}"): typeof import('./graphql.js').MemoryUpdateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryWeaken($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {\n  weaken(\n    edgeId: $edgeId\n    from: $from\n    to: $to\n    type: $type\n    amount: $amount\n    reason: $reason\n  ) {\n    ...WeightChangeFields\n  }\n}"): typeof import('./graphql.js').MemoryWeakenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryWriteLookup($ids: [ID!]!) {\n  memories(ids: $ids) {\n    id\n    key\n    title\n    content\n    kind\n    tags\n    metadata\n    weight\n    neighbors(direction: OUTGOING, includePruned: true, limit: 20) {\n      edge {\n        type\n        weight\n        metadata\n        to {\n          id\n        }\n      }\n    }\n  }\n}\n\nmutation MemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {\n  importGraph(memories: $memories, edges: $edges) {\n    memories\n    edges\n  }\n}"): typeof import('./graphql.js').MemoryWriteLookupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RelationTypes {\n  relationTypes {\n    name\n    description\n    inverse\n  }\n}"): typeof import('./graphql.js').RelationTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ServerMemoryDeleteEntity($id: ID!) {\n  deleteMemory(id: $id) {\n    deleted\n  }\n}"): typeof import('./graphql.js').ServerMemoryDeleteEntityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ServerMemoryEdgesBetween($from: ID!, $to: ID!, $types: [String!]) {\n  edgesBetween(from: $from, to: $to, types: $types) {\n    ...RelationFields\n  }\n}"): typeof import('./graphql.js').ServerMemoryEdgesBetweenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ServerMemoryEntityPage($first: Int!, $after: String) {\n  memoriesConnection(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        ...EntityFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"): typeof import('./graphql.js').ServerMemoryEntityPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ServerMemoryLookup($ids: [ID!]!) {\n  memories(ids: $ids) {\n    ...EntityFields\n  }\n}"): typeof import('./graphql.js').ServerMemoryLookupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ServerMemoryRelationPage($first: Int!, $after: String) {\n  edgesConnection(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        ...RelationFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"): typeof import('./graphql.js').ServerMemoryRelationPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ServerMemoryTouching($id: ID!) {\n  memory(id: $id) {\n    id\n    neighbors(direction: BOTH, includePruned: true, limit: 100) {\n      edge {\n        ...RelationFields\n      }\n    }\n  }\n}"): typeof import('./graphql.js').ServerMemoryTouchingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ServerMemoryUnlink($id: ID!) {\n  unlink(input: {id: $id}) {\n    removed\n  }\n}"): typeof import('./graphql.js').ServerMemoryUnlinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ServerMemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {\n  importGraph(memories: $memories, edges: $edges) {\n    memories\n    edges\n  }\n}"): typeof import('./graphql.js').ServerMemoryWriteDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
