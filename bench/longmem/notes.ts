import type { PlannedEvent, PlannedGroup, PlannedItem, PlannedQuestion, QuestionKind } from './generator.js';
import { type Asks, int, Pool, pad2, pick, type Rng, render, sample, type Vars, wordings } from './text.js';

/**
 * The `notes` shape: a team's work and research notes across projects, over 15-19 working days
 * each. A note is one memory: title `<Project>: <heading>` (headings are generic: "standup",
 * "decision log", "eval results"), body one or two sentences. Facts are planted in notes
 * (decisions, experiment results, root causes, owners ...), some change later (a migration, a new
 * owner, a slipped date), some need two notes (an owner in one, their leave in another), and a
 * few threads (latency work, incidents, sweeps) fill many notes with the same words.
 *
 * Edges besides FOLLOWED_BY (consecutive notes of a day): a note that replaces an earlier one
 * links to it with SUPERSEDES half of the time, and a thread's notes link to the previous note of
 * the thread with RELATED_TO 40 % of the time, as a note-taker links some notes and not others.
 */

const SYN: Record<string, readonly string[]> = {
  chose: ['chose', 'picked', 'went with', 'settled on'],
  store: ['database', 'datastore', 'storage backend'],
  raising: ['raising', 'increasing', 'bumping'],
  cut: ['cut', 'reduced', 'lowered', 'brought down'],
  cut_q: ['cut', 'reduce', 'lower', 'shrink'],
  caused: ['caused', 'was behind', 'triggered'],
  owns: ['owns', 'is responsible for', 'leads', 'is in charge of'],
  owner: ['owner', 'lead', 'person responsible'],
  on_leave: ['is on leave', 'will be out', 'is away', 'is off'],
  back: ['back', 'returning'],
  found: ['found', 'tracked down', 'spotted', 'figured out'],
  find_q: ['find', 'discover', 'track down', 'figure out'],
  budget: ['budget', 'spend', 'funding'],
  contact: ['contact', 'point of contact', 'liaison'],
  pilot: ['pilot', 'trial', 'try out'],
  risk: ['risk', 'concern', 'worry'],
  due: ['due', 'scheduled', 'planned'],
  latency: ['latency', 'response time'],
  outage: ['outage', 'downtime', 'incident'],
  cleaned: ['cleaned', 'deduplicated', 'filtered'],
  covers: ['covers', 'is covering', 'fills in', 'is standing in'],
  sweep: ['sweep', 'hyperparameter search', 'tuning run'],
};

/** Things with several names: a statement and a question each pick one. */
const COMPONENTS = [
  ['ingestion pipeline', 'ingest pipeline', 'data intake job'],
  ['ranking model', 'ranker', 'relevance model'],
  ['billing service', 'invoicing service', 'billing backend'],
  ['search index', 'search cluster', 'index cluster'],
  ['feature store', 'features service', 'feature platform'],
  ['mobile app', 'phone app', 'iOS and Android apps'],
  ['auth service', 'login service', 'authentication backend'],
  ['nightly ETL', 'ETL job', 'overnight batch job'],
  ['reporting dashboard', 'metrics board', 'dashboards'],
  ['recommender', 'recommendation model', 'recs model'],
  ['payment gateway', 'payments integration', 'checkout API'],
  ['notification service', 'push service', 'alerts service'],
];
const SYMPTOMS = [
  ['nightly job failures', 'overnight job crashes', 'failed nightly runs'],
  ['login timeouts', 'sign-in timeouts', 'slow logins'],
  ['duplicate invoices', 'double billing', 'invoices sent twice'],
  ['memory leak', 'growing memory use', 'out-of-memory kills'],
  ['stale search results', 'outdated results', 'old documents showing up in search'],
  ['flaky tests', 'intermittent test failures', 'unstable CI'],
  ['missing events', 'dropped events', 'lost events'],
  ['slow dashboard loads', 'dashboard lag', 'dashboards loading slowly'],
];
const MODELS = [
  ['fraud model', 'fraud classifier', 'fraud detector'],
  ['churn model', 'churn predictor', 'attrition model'],
  ['intent model', 'intent classifier', 'query intent model'],
  ['spam filter', 'spam classifier', 'junk detector'],
  ['ETA model', 'arrival time predictor', 'delivery time model'],
  ['pricing model', 'price predictor', 'dynamic pricing model'],
];
const DATASETS = [
  ['March holdout', 'March test split', 'held-out March data'],
  ['support tickets set', 'ticket dataset', 'customer tickets corpus'],
  ['EU slice', 'European traffic sample', 'EU subset'],
  ['gold set', 'hand-labelled set', 'gold labels'],
  ['Q3 logs', 'third-quarter logs', 'Q3 traffic logs'],
  ['mobile traffic sample', 'app traffic sample', 'mobile sessions'],
];
const MEETINGS = [
  ['design review', 'architecture review', 'design sync'],
  ['retro', 'retrospective', 'team retro'],
  ['sprint planning', 'planning meeting', 'iteration planning'],
  ['demo', 'demo day', 'show and tell'],
];
const COST_METRICS = [
  ['training time', 'time to train', 'train time'],
  ['p99 latency', 'tail latency', '99th percentile latency'],
  ['cloud bill', 'compute cost', 'infra spend'],
  ['memory use', 'RAM usage', 'memory footprint'],
  ['build time', 'CI duration', 'build duration'],
];
const CHANGES = [
  ['connection pooling', 'adding a connection pool', 'pooled connections'],
  ['the cache warm-up', 'warming the cache', 'cache pre-loading'],
  ['the index rebuild', 'rebuilding the index', 'the reindex'],
  ['enabling compression', 'turning on gzip', 'compressed responses'],
  ['the query rewrite', 'rewriting the slow query', 'the SQL fix'],
  ['the thread pool resize', 'resizing the thread pool', 'more worker threads'],
];
const REGULARISERS = [
  ['dropout', 'dropout regularisation', 'heavier dropout'],
  ['label smoothing', 'smoothed labels', 'label-smoothing'],
  ['weight decay', 'L2 regularisation', 'L2 penalty'],
  ['mixup', 'mixup augmentation', 'mixed-sample augmentation'],
];

// biome-ignore format: word lists read better packed
const PROJECTS = [
  'Atlas', 'Beacon', 'Cobalt', 'Driftwood', 'Ember', 'Falcon', 'Garnet', 'Harbor', 'Iris', 'Juniper', 'Kestrel',
  'Lumen', 'Meridian', 'Nimbus', 'Onyx', 'Pioneer', 'Quasar', 'Redwood',
];
// biome-ignore format: word lists read better packed
const PEOPLE = [
  'Dana', 'Kiran', 'Mei', 'Tobias', 'Ruth', 'Arjun', 'Sanne', 'Pavel', 'Lucia', 'Femi', 'Hiro', 'Astrid', 'Bilal',
  'Carmen', 'Dmitri', 'Eun-ji', 'Gabe', 'Helga', 'Ilya', 'Joanna', 'Kwame', 'Linnea', 'Mateus', 'Nkechi', 'Oren',
  'Paula', 'Rohan', 'Signe', 'Tariq', 'Ulla', 'Vikram', 'Wren', 'Ximena', 'Yosef', 'Zainab', 'Anton', 'Beatriz',
  'Cormac', 'Dilnoza', 'Elif', 'Fergus', 'Gita', 'Henrik', 'Isabel', 'Jonah', 'Keiko', 'Leandro', 'Mariam',
];
// biome-ignore format: word lists read better packed
const V = {
  techs: [
    'Postgres', 'Cassandra', 'DynamoDB', 'Redis', 'ClickHouse', 'SQLite', 'MongoDB', 'BigQuery', 'Elasticsearch',
    'CockroachDB', 'ScyllaDB', 'MySQL',
  ],
  why: ['cost', 'write throughput', 'the ops burden', 'licensing', 'read latency', 'the managed offering'],
  params: [
    ['batch size', '512'],
    ['worker count', '16'],
    ['cache size', '4 GB'],
    ['shard count', '12'],
    ['prefetch depth', '8'],
    ['replica count', '5'],
  ],
  pcts: ['18', '22', '27', '31', '35', '40', '44', '12'],
  causes: [
    'a timezone bug in the scheduler', 'an expired TLS certificate', 'a race in the retry handler',
    'an unbounded cache in the parser', 'a missing index on the orders table', 'clock skew between two nodes',
    'a misconfigured load balancer', 'a retry storm from the mobile client', 'a stale DNS entry',
    'a full disk on the queue broker',
  ],
  metrics: ['accuracy', 'F1', 'recall', 'AUC', 'precision'],
  values: ['0.71', '0.74', '0.78', '0.81', '0.83', '0.86', '0.88', '0.91', '0.93'],
  vendors: [
    'Acme Cloud', 'Datastream Inc', 'Nimbus Labels', 'Vertex Maps', 'Pinecrest Security', 'Orbit Telecom',
    'Bluewave Payments', 'Sextant Analytics',
  ],
  externals: [
    'Harriet Cole', 'Mo Adeyemi', 'Greg Lindahl', 'Sunita Rao', 'Pierre Dumas', 'Aiko Tanaka', 'Ben Okoro',
    'Marta Silva',
  ],
  channels: ['Slack', 'email', 'the shared channel', 'the phone'],
  quarters: ['Q1', 'Q2', 'Q3', 'Q4'],
  amounts: ['$40k', '$65k', '$120k', '$80k', '$150k', '$95k', '$210k'],
  weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
  hours: ['9:30', '10:00', '11:00', '14:00', '15:30', '16:00'],
  customers: [
    'Harbor Foods', 'Kite Airlines', 'Orion Bank', 'Maple Clinics', 'Fjord Shipping', 'Summit Retail',
    'Lark Insurance', 'Polar Logistics',
  ],
  months: [
    'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November',
    'December',
  ],
  milestones: ['beta launch', 'GA release', 'migration cutover', 'Q3 demo', 'public launch', 'security audit'],
  risks: [
    'the vendor API rate limits', 'not enough on-call coverage', 'data quality in the EU slice', 'the legacy schema',
    'the security review backlog', 'GPU availability', 'a single point of failure in the queue',
  ],
  jobRoles: ['data engineer', 'ML engineer', 'designer', 'SRE', 'product analyst', 'QA lead'],
  dates: ['March 3', 'April 14', 'May 20', 'June 2', 'July 15', 'August 29', 'September 9', 'October 1', 'November 18'],
  reasons: ['the vendor delay', 'a hiring freeze', 'the security review', 'scope creep'],
  codenames: [
    'Bluebird', 'Granite', 'Paprika', 'Nightjar', 'Sandcastle', 'Tumbleweed', 'Osprey', 'Quartz', 'Marigold', 'Flint',
  ],
  teams: ['payments', 'infra', 'growth', 'security', 'data platform', 'mobile'],
  findings: [
    'a double-counting bug in the revenue report', 'that the cache TTL was set to zero',
    'a forgotten cron job hammering the database', 'an off-by-one in the pagination code',
    'that half the alerts were duplicates', 'a memory spike from unclosed file handles',
  ],
  vendorThings: ['new API version', 'SDK update', 'bulk data export', 'SSO integration', 'price change'],
  duties: ['code reviews', 'on-call', 'their tickets', 'the weekly report'],
  ms: ['38', '45', '52', '61', '74', '88', '95', '120', '140'],
  minutes: ['12', '25', '40', '55', '75', '90', '130'],
  lrs: ['3e-4', '1e-3', '5e-4', '2e-5', '1e-4', '7e-4'],
  alerts: ['disk usage', 'error rate', 'queue depth', 'certificate expiry', 'CPU saturation'],
  readings: ['retrieval', 'distillation', 'queueing theory', 'feature drift', 'consensus protocols', 'vector search'],
};

type Ctx = {
  rng: Rng;
  asks: Asks;
  project: string;
  group: number;
  days: number;
  team: string[];
  components: string[][];
  events: PlannedEvent[];
  links: PlannedGroup['links'];
  questions: PlannedQuestion[];
};

const write = (ctx: Ctx, template: string, vars: Vars) =>
  render(ctx.rng, template, { project: ctx.project, ...vars }, SYN);

const TAILS = [
  'Next sync on {weekday}.',
  'Action items are in the tracker.',
  'Follow up with {p1}.',
  'More detail in the doc.',
  'Will revisit next week.',
];

/** One note: `<Project>: <heading>` and a body, sometimes with a routine sentence after the fact. */
function note(ctx: Ctx, session: number, headings: readonly string[], body: string, handle?: string): PlannedEvent {
  const heading = write(ctx, pick(ctx.rng, headings), {});
  const tail =
    ctx.rng() < 0.35
      ? ` ${write(ctx, pick(ctx.rng, TAILS), { weekday: pick(ctx.rng, V.weekdays), p1: pick(ctx.rng, ctx.team) })}`
      : '';
  const event: PlannedEvent = {
    session,
    items: [
      {
        title: `${ctx.project}: ${heading.charAt(0).toLowerCase()}${heading.slice(1)}`,
        content: `${body}${tail}`,
        kind: 'note',
        ...(handle ? { handle } : {}),
      },
    ],
  };
  ctx.events.push(event);
  return event;
}

function ask(
  ctx: Ctx,
  kind: QuestionKind,
  fact: string,
  templates: readonly string[],
  vars: Vars,
  answer: string,
  evidence: string[],
  count = 1,
) {
  for (const [template, rng] of wordings(ctx.rng, ctx.asks, templates, count)) {
    const from = { ...ctx, rng };
    ctx.questions.push({ kind, fact, text: write(from, template, vars), evidence, answer: write(from, answer, vars) });
  }
}

const handle = (ctx: Ctx, name: string) => `p${pad2(ctx.group + 1)}:${name}`;
const howMany = (ctx: Ctx) => (ctx.rng() < 0.35 ? 2 : 1);

/** Say-form and ask-form of a thing with several names, drawn independently. */
const named = (rng: Rng, forms: readonly string[], key: string): Vars => ({
  [`${key}Say`]: pick(rng, forms),
  [`${key}Ask`]: pick(rng, forms),
});

// ---------------------------------------------------------------------------------------------

interface Fact {
  id: string;
  vars(ctx: Ctx): Vars;
  headings: string[];
  say: string[];
  /** Other notes that name the same things without the answer (the words recur, as they do in real notes). */
  mention: string[];
  ask: string[];
  answer: string;
}

const component = (ctx: Ctx): Vars => named(ctx.rng, pick(ctx.rng, ctx.components), 'component');

const SINGLE_FACTS: Fact[] = [
  {
    id: 'experiment',
    vars: (ctx) => {
      const [param, value] = pick(ctx.rng, V.params) as [string, string];
      return {
        expid: `E-${int(ctx.rng, 10, 99)}`,
        param,
        value,
        pct: pick(ctx.rng, V.pcts),
        ...named(ctx.rng, pick(ctx.rng, COST_METRICS), 'cost'),
      };
    },
    headings: ['experiment log', 'experiments', 'exp notes'],
    say: [
      '{expid}: <raising> the {param} to {value} <cut> the {costSay} by {pct}%.',
      '[Result of|Outcome of] {expid}: {costSay} down {pct}% with the {param} at {value}.',
    ],
    mention: [
      'Queued {expid} to test a [larger|different] {param}.',
      '{expid} [rerun|reproduced] on the new cluster; {costSay} [logged|tracked] in the sheet.',
    ],
    ask: [
      'By how much did a [larger|bigger|higher] {param} <cut_q> the {costAsk} [on|in] {project}?',
      'What did [changing|tuning] the {param} do to the {costAsk} in {project}?',
    ],
    answer: '{pct}%',
  },
  {
    id: 'root-cause',
    vars: (ctx) => ({ cause: pick(ctx.rng, V.causes), ...named(ctx.rng, pick(ctx.rng, SYMPTOMS), 'symptom') }),
    headings: ['bug triage', 'incident review', 'postmortem'],
    say: ['[Root cause|Cause] of the {symptomSay}: {cause}.', 'Found why we had {symptomSay}: {cause}.'],
    mention: ['{symptomSay} [again|still] [this morning|overnight]; investigating.', 'Bug filed for the {symptomSay}.'],
    ask: ['What <caused> the {symptomAsk} [on|in] {project}?', 'Why did {project} have {symptomAsk}?'],
    answer: '{cause}',
  },
  {
    id: 'metric',
    vars: (ctx) => ({
      metric: pick(ctx.rng, V.metrics),
      value: pick(ctx.rng, V.values),
      base: pick(ctx.rng, ['0.62', '0.66', '0.69']),
      ...named(ctx.rng, pick(ctx.rng, MODELS), 'model'),
      ...named(ctx.rng, pick(ctx.rng, DATASETS), 'dataset'),
    }),
    headings: ['eval results', 'metrics', 'weekly numbers'],
    say: [
      '{metric} of the {modelSay} on the {datasetSay}: {value} (baseline {base}).',
      'The {modelSay} [scores|gets] {value} {metric} on the {datasetSay}.',
    ],
    mention: [
      'Re-running the {modelSay} eval on the {datasetSay}.',
      'Labels in the {datasetSay} [need a second pass|were refreshed].',
    ],
    ask: [
      'What {metric} does the {project} {modelAsk} [reach|get|score] on the {datasetAsk}?',
      'How well does the {project} {modelAsk} do on the {datasetAsk}?',
    ],
    answer: '{value}',
  },
  {
    id: 'vendor',
    vars: (ctx) => ({
      vendor: pick(ctx.rng, V.vendors),
      ext: pick(ctx.rng, V.externals),
      channel: pick(ctx.rng, V.channels),
    }),
    headings: ['vendor call', 'partner sync', 'contacts'],
    say: [
      'Our <contact> at {vendor} is {ext}; [reach them|best reached] on {channel}.',
      '{ext} is [now|going to be] our <contact> at {vendor}.',
    ],
    mention: ['Invoice from {vendor} [paid|disputed].', '{vendor} contract renewal [due|signed] this quarter.'],
    ask: ["Who is {project}'s <contact> at {vendor}?", 'Who should {project} talk to at {vendor}?'],
    answer: '{ext}',
  },
  {
    id: 'budget',
    vars: (ctx) => ({ quarter: pick(ctx.rng, V.quarters), amount: pick(ctx.rng, V.amounts) }),
    headings: ['budget', 'planning', 'finance sync'],
    say: [
      '{quarter} <budget> for {project} [approved|signed off]: {amount}[ for compute|, mostly headcount|].',
      'Finance [approved|signed off on] {amount} of {quarter} <budget>.',
    ],
    mention: [
      '{quarter} <budget> [forecast|review] with finance next week.',
      'Drafting the {quarter} <budget> request.',
    ],
    ask: ['How much <budget> did {project} get for {quarter}?', 'What {quarter} <budget> was approved for {project}?'],
    answer: '{amount}',
  },
  {
    id: 'meeting',
    vars: (ctx) => ({
      weekday: pick(ctx.rng, V.weekdays),
      hour: pick(ctx.rng, V.hours),
      ...named(ctx.rng, pick(ctx.rng, MEETINGS), 'meeting'),
    }),
    headings: ['team logistics', 'calendar', 'admin'],
    say: [
      '[Moved|Set] the {meetingSay} to {weekday}s at {hour}.',
      '{meetingSay} is on {weekday}s at {hour} [from now on|this quarter].',
    ],
    mention: [
      'Agenda for the {meetingSay}: [roadmap|incidents|hiring].',
      'Skipped the {meetingSay} [this week|today].',
    ],
    ask: ['When is the {project} {meetingAsk}?', "What day is {project}'s {meetingAsk} [on|held]?"],
    answer: '{weekday}s at {hour}',
  },
  {
    id: 'pilot',
    vars: (ctx) => ({ customer: pick(ctx.rng, V.customers), month: pick(ctx.rng, V.months), ...component(ctx) }),
    headings: ['customers', 'sales sync', 'pilot planning'],
    say: [
      '{customer} [agreed|signed up] to <pilot> the {componentSay} in {month}.',
      '{month}: {customer} [starts|begins] a <pilot> of the {componentSay}.',
    ],
    mention: [
      '<pilot> checklist for the {componentSay} [drafted|updated].',
      'Sales wants a <pilot> of the {componentSay} [soon|this quarter].',
    ],
    ask: [
      "Which customer will <pilot> {project}'s {componentAsk}?",
      'Who signed up for the {project} {componentAsk} <pilot>?',
    ],
    answer: '{customer}',
  },
  {
    id: 'risk',
    vars: (ctx) => ({ milestone: pick(ctx.rng, V.milestones), risk: pick(ctx.rng, V.risks) }),
    headings: ['risks', 'planning', 'launch prep'],
    say: ['Biggest <risk> for the {milestone}: {risk}.', 'Top <risk> [flagged|raised] for the {milestone} is {risk}.'],
    mention: ['{milestone} checklist [updated|reviewed].', '[Prep|Planning] for the {milestone} [on track|behind].'],
    ask: [
      'What is the main <risk> for the {project} {milestone}?',
      'What [worries|concerns] the {project} team most about the {milestone}?',
    ],
    answer: '{risk}',
  },
  {
    id: 'hire',
    vars: (ctx) => ({
      newbie: pick(ctx.rng, PEOPLE),
      jobRole: pick(ctx.rng, V.jobRoles),
      month: pick(ctx.rng, V.months),
    }),
    headings: ['hiring', 'team', 'people'],
    say: [
      '[Hired|Offer accepted by] {newbie} as our {jobRole}, starting in {month}.',
      '{newbie} [accepted the offer|signed] for the {jobRole} role.',
    ],
    mention: ['Interview loop for the {jobRole} role [done|scheduled].', 'Job ad for a {jobRole} [posted|updated].'],
    ask: ['Who is joining {project} as the new {jobRole}?', 'Who did {project} [hire|bring on] as {jobRole}?'],
    answer: '{newbie}',
  },
];

interface UpdateFact {
  id: string;
  vars(ctx: Ctx): Vars;
  headings: string[];
  old: string[];
  mention: string[];
  new: string[];
  ask: string[];
  answer: string;
}

const UPDATE_FACTS: UpdateFact[] = [
  {
    id: 'tech',
    vars: (ctx) => {
      const [tech, tech2] = sample(ctx.rng, V.techs, 2) as [string, string];
      return { tech, tech2, why: pick(ctx.rng, V.why), ...component(ctx) };
    },
    headings: ['decision log', 'design review', 'architecture'],
    old: ['We <chose> {tech} for the {componentSay}.', 'Decision: the {componentSay} [will use|goes on] {tech}.'],
    mention: [
      '{tech} [upgrade|tuning] for the {componentSay} [done|in progress].',
      '[Vacuum|Compaction] settings on {tech} [need a look|were tweaked].',
    ],
    new: [
      '[Switching|Migrating] the {componentSay} from {tech} to {tech2} because of {why}.',
      'Migration [done|finished]: the {componentSay} now runs on {tech2}.',
    ],
    ask: [
      "Which <store> does {project}'s {componentAsk} use now?",
      'What is the {project} {componentAsk} [running on|built on] [now|today]?',
    ],
    answer: '{tech2}',
  },
  {
    id: 'owner',
    vars: (ctx) => {
      const [person, person2] = sample(ctx.rng, ctx.team, 2) as [string, string];
      return { person, person2, ...component(ctx) };
    },
    headings: ['team', 'ownership', 'people'],
    old: ['{person} <owns> the {componentSay}.', '{person} [takes|has taken] ownership of the {componentSay}.'],
    mention: ['{person} [shipped|reviewed] a fix for the {componentSay}.'],
    new: [
      '[Handover|Ownership change]: {person2} [takes over|now owns] the {componentSay} from {person}.',
      '{person2} is the new <owner> of the {componentSay}; {person} moves on.',
    ],
    ask: ["Who <owns> {project}'s {componentAsk} now?", "Who is the current <owner> of {project}'s {componentAsk}?"],
    answer: '{person2}',
  },
  {
    id: 'deadline',
    vars: (ctx) => {
      const [date, date2] = sample(ctx.rng, V.dates, 2) as [string, string];
      return { milestone: pick(ctx.rng, V.milestones), date, date2, reason: pick(ctx.rng, V.reasons) };
    },
    headings: ['planning', 'roadmap', 'status'],
    old: ['{milestone} is <due> {date}.', 'Target for the {milestone}: {date}.'],
    mention: ['[On track|Slightly behind] for the {milestone}.'],
    new: [
      '[Pushed|Moved|Slipped] the {milestone} to {date2} because of {reason}.',
      'New date for the {milestone}: {date2}.',
    ],
    ask: [
      'When is the {project} {milestone} [due|planned|scheduled] now?',
      'What is the [current|latest] date for the {project} {milestone}?',
    ],
    answer: '{date2}',
  },
  {
    id: 'best-metric',
    vars: (ctx) => {
      const [value, value2] = sample(ctx.rng, V.values, 2).sort() as [string, string];
      return {
        metric: pick(ctx.rng, V.metrics),
        value,
        value2,
        ...named(ctx.rng, pick(ctx.rng, MODELS), 'model'),
        ...named(ctx.rng, pick(ctx.rng, DATASETS), 'dataset'),
      };
    },
    headings: ['eval results', 'metrics', 'model notes'],
    old: ['{metric} of the {modelSay} on the {datasetSay}: {value}.'],
    mention: ['Retraining the {modelSay} [tonight|over the weekend].'],
    new: ['New best: the {modelSay} [hits|reaches] {metric} {value2} on the {datasetSay}[ after retraining|].'],
    ask: [
      "What is the best {metric} of {project}'s {modelAsk} on the {datasetAsk} [so far|now]?",
      'What {metric} does the {project} {modelAsk} reach now?',
    ],
    answer: '{value2}',
  },
  {
    id: 'meeting-move',
    vars: (ctx) => {
      const [weekday, weekday2] = sample(ctx.rng, V.weekdays, 2) as [string, string];
      return { weekday, weekday2, ...named(ctx.rng, pick(ctx.rng, MEETINGS), 'meeting') };
    },
    headings: ['team logistics', 'calendar', 'admin'],
    old: ['[Set|Scheduled] the {meetingSay} for {weekday}s.'],
    mention: ['Short {meetingSay} this week, [half the team out|nothing urgent].'],
    new: ['The {meetingSay} moves to {weekday2}s [from next week|starting this sprint].'],
    ask: ["When is {project}'s {meetingAsk} now?", 'Which day is the {project} {meetingAsk} on now?'],
    answer: '{weekday2}',
  },
];

// ---------------------------------------------------------------------------------------------

interface Thread {
  id: string;
  vars(ctx: Ctx): Vars;
  headings: string[];
  chatter: string[];
  /** How the details differ: each detail takes its own entry (all names of one thing), as `{keySay}`/`{keyAsk}`. */
  distinct: { key: string; things: string[][]; count: number };
  detail: { say: string; ask: string[]; answer: string; vars(ctx: Ctx): Vars };
}

const TRIGGERS = [
  ['a bad deploy', 'a faulty release', 'a broken rollout'],
  ['a certificate expiry', 'an expired cert', 'the TLS certificate lapsing'],
  ['a database failover', 'the DB failover', 'a primary switch-over'],
  ['a traffic spike', 'a surge in traffic', 'the load spike'],
  ['a config push', 'a configuration change', 'the config rollout'],
];

const THREADS: Thread[] = [
  {
    id: 'latency',
    vars: (ctx) => ({ ...component(ctx), ms: pick(ctx.rng, V.ms) }),
    headings: ['perf', 'latency work', 'ops'],
    chatter: [
      '{componentSay} p99 <latency> [looks|is] {ms} ms today.',
      '[Profiling|Benchmarking] the {componentSay} [again|this afternoon]; <latency> [unchanged|noisy].',
      '<latency> dashboard for the {componentSay} [updated|looks noisy].',
      '<latency> regression on the {componentSay}? [Investigating|Probably noise].',
      'Load test of the {componentSay} [scheduled|postponed]; p99 <latency> is the number to watch.',
    ],
    distinct: { key: 'change', things: CHANGES, count: 3 },
    detail: {
      say: 'After {changeSay}, the {componentSay} p99 <latency> [dropped|fell|went down] to {ms2} ms.',
      ask: [
        'What was the {project} {componentAsk} p99 <latency> after {changeAsk}?',
        'How low did the {componentAsk} p99 get in {project} with {changeAsk}?',
      ],
      answer: '{ms2} ms',
      vars: (ctx) => ({ ms2: pick(ctx.rng, V.ms) }),
    },
  },
  {
    id: 'incidents',
    vars: (ctx) => ({
      ...component(ctx),
      hour: pick(ctx.rng, ['2am', '3am', '5am', 'midnight']),
      alert: pick(ctx.rng, V.alerts),
    }),
    headings: ['on-call', 'incidents', 'ops'],
    chatter: [
      'On-call was [quiet|noisy] this week; one <outage> scare on the {componentSay}.',
      'Paged at {hour} for {alert} on the {componentSay}.',
      '<outage> drill for the {componentSay} [went fine|found gaps].',
      'Runbook for {alert} [updated|needs work].',
      'Error budget for the {componentSay} [is fine|is burning] this week.',
    ],
    distinct: { key: 'trigger', things: TRIGGERS, count: 2 },
    detail: {
      say: '{incid}: the {componentSay} <outage> [lasted|took] {minutes} minutes, [caused by|after] {triggerSay}.',
      ask: [
        'How long did the {project} {componentAsk} <outage> [last|take] after {triggerAsk}?',
        "How many minutes was {project}'s {componentAsk} down because of {triggerAsk}?",
      ],
      answer: '{minutes} minutes',
      vars: (ctx) => ({ incid: `INC-${int(ctx.rng, 100, 999)}`, minutes: pick(ctx.rng, V.minutes) }),
    },
  },
  {
    id: 'sweeps',
    vars: (ctx) => ({ ...named(ctx.rng, pick(ctx.rng, MODELS), 'model') }),
    headings: ['experiments', 'training runs', 'model notes'],
    chatter: [
      'Kicked off another <sweep> on the {modelSay}.',
      'GPU queue is [full|slow] again; <sweep> on the {modelSay} [waiting|stuck].',
      '<sweep> results for the {modelSay} [inconclusive|still running].',
      'Eval harness for the {modelSay} [fixed|flaky] today.',
      'Learning rate schedule for the {modelSay}: [cosine|linear decay] next.',
    ],
    distinct: { key: 'reg', things: REGULARISERS, count: 2 },
    detail: {
      say: '<sweep> on the {modelSay} with {regSay}: best learning rate {lr}.',
      ask: [
        'What learning rate worked best for the {project} {modelAsk} with {regAsk}?',
        "Which learning rate won {project}'s {modelAsk} <sweep> using {regAsk}?",
      ],
      answer: '{lr}',
      vars: (ctx) => ({ lr: pick(ctx.rng, V.lrs) }),
    },
  },
];

/** The names of the thread's subject (its component or model) stay; everything else is drawn anew. */
const subjectOf = (vars: Vars): Vars =>
  Object.fromEntries(Object.entries(vars).filter(([key]) => key.endsWith('Say') || key.endsWith('Ask')));

const FILLERS: { headings: string[]; body: string }[] = [
  {
    headings: ['standup', 'daily notes'],
    body: 'Standup: {p1} on the {componentSay}; {p2} [blocked on review|waiting for access|out sick].',
  },
  {
    headings: ['todo', 'scratchpad'],
    body: 'TODO: [update|review|write] the [runbook|design doc|README|onboarding guide] for the {componentSay}.',
  },
  { headings: ['reading', 'links'], body: 'Read: [paper|blog post] on {reading}; [worth a look|skim only].' },
  {
    headings: ['sync notes', 'meeting notes'],
    body: 'Sync with the {team} team: [agreed to share dashboards|discussed the roadmap|no blockers].',
  },
  {
    headings: ['ops', 'health check'],
    body: '{componentSay} [error rate|CPU|memory] [looks normal|is a bit high|is spiky] today.',
  },
  {
    headings: ['reminders', 'admin'],
    body: 'Reminder: [submit expenses|book the offsite|renew the certificate|update the status page] by {weekday}.',
  },
  {
    headings: ['team', 'events'],
    body: '[Lunch and learn|Demo day] [on|this] {weekday}: {p1} presents [the roadmap|a prototype|the new alerting].',
  },
  {
    headings: ['ideas', 'scratchpad'],
    body: 'Idea: [cache|batch|shard|precompute] the {componentSay} [results|lookups|writes]?',
  },
  {
    headings: ['code review', 'daily notes'],
    body: 'Review backlog for the {componentSay} is [growing|down to two PRs].',
  },
  { headings: ['1:1', 'people'], body: '1:1 with {p1}: [career goals|workload|feedback on the launch].' },
  {
    headings: ['standup', 'daily notes'],
    body: '{p1} [paired with|helped] {p2} on the {componentSay} [tests|deploy|migration script].',
  },
  {
    headings: ['status', 'weekly update'],
    body: 'Weekly update: the {componentSay} [is on track|slipped a little|is waiting on review].',
  },
];

// ---------------------------------------------------------------------------------------------

export function planNotes(rng: Rng, scale: number, asks: Asks): PlannedGroup[] {
  const projects = Math.max(1, Math.round(14 * scale));
  const names = new Pool(rng, PROJECTS, true);
  const groups: PlannedGroup[] = [];
  for (let group = 0; group < projects; group++) groups.push(planProject(rng, group, names.take(), asks));
  return groups;
}

function planProject(rng: Rng, group: number, project: string, asks: Asks): PlannedGroup {
  const days = int(rng, 15, 19);
  const team = sample(rng, PEOPLE, 5);
  const ctx: Ctx = {
    rng,
    asks,
    project,
    group,
    days,
    team,
    components: sample(rng, COMPONENTS, 4),
    events: [],
    links: [],
    questions: [],
  };
  const anyDay = () => int(rng, 0, days - 1);

  const singles = sample(rng, SINGLE_FACTS, int(rng, 6, 8));
  for (const fact of singles) {
    const v = fact.vars(ctx);
    const h = handle(ctx, fact.id);
    note(ctx, anyDay(), fact.headings, write(ctx, pick(rng, fact.say), v), h);
    for (let i = 0, n = int(rng, 1, 2); i < n; i++)
      note(ctx, anyDay(), fact.headings, write(ctx, pick(rng, fact.mention), v));
    ask(ctx, 'single-hop', fact.id, fact.ask, v, fact.answer, [h], howMany(ctx));
  }

  for (const fact of sample(rng, UPDATE_FACTS, 3)) {
    const v = fact.vars(ctx);
    const first = int(rng, 0, days - 5);
    const later = int(rng, first + 3, days - 1);
    const old = handle(ctx, `${fact.id}-old`);
    note(ctx, first, fact.headings, write(ctx, pick(rng, fact.old), v), old);
    for (let i = 0, n = int(rng, 1, 2); i < n; i++)
      note(ctx, int(rng, first, later), fact.headings, write(ctx, pick(rng, fact.mention), v));
    const h = handle(ctx, `${fact.id}-new`);
    note(ctx, later, fact.headings, write(ctx, pick(rng, fact.new), v), h);
    if (rng() < 0.5) ctx.links.push({ from: h, to: old, type: 'SUPERSEDES', weight: 0.5 });
    ask(ctx, 'update', `update:${fact.id}`, fact.ask, v, fact.answer, [h], rng() < 0.3 ? 2 : 1);
  }

  // Two or more notes: an owner and their leave or their cover; a code name and its results; a
  // newcomer and what they found; a vendor contact and what the contact said.
  const owners = sample(rng, team, 2);
  const ownedComponents = sample(rng, ctx.components, 2);
  owners.forEach((person, index) => {
    const v: Vars = { person, ...named(rng, ownedComponents[index] as string[], 'component') };
    const owner = handle(ctx, `owner${index}`);
    const ownerDay = int(rng, 0, days - 4);
    note(
      ctx,
      ownerDay,
      ['team', 'ownership', 'people'],
      write(ctx, '{person} <owns> the {componentSay}[ going forward|].', v),
      owner,
    );
    ask(
      ctx,
      'single-hop',
      'owner',
      ['Who <owns> the {componentAsk} [on|in] {project}?', "Who is the <owner> of {project}'s {componentAsk}?"],
      v,
      '{person}',
      [owner],
    );
    const backup = pick(
      rng,
      team.filter((member) => member !== person),
    );
    const leaveV = {
      ...v,
      month: pick(rng, V.months),
      backup,
      duty: pick(rng, V.duties),
      componentAsk: pick(rng, ownedComponents[index] as string[]),
    };
    if (index === 0 || rng() < 0.5) {
      const leave = handle(ctx, `owner${index}-leave`);
      note(
        ctx,
        int(rng, ownerDay + 1, days - 1),
        ['team', 'people', 'calendar'],
        write(ctx, '{person} <on_leave> until {month}[; ping {backup} meanwhile|].', leaveV),
        leave,
      );
      ask(
        ctx,
        'multi-hop',
        'multi:owner-leave',
        [
          'When will the <owner> of the {project} {componentAsk} be <back>?',
          "Until when is {project}'s {componentAsk} <owner> away?",
        ],
        leaveV,
        '{month}',
        [owner, leave],
      );
    } else {
      const cover = handle(ctx, `owner${index}-cover`);
      note(
        ctx,
        int(rng, ownerDay + 1, days - 1),
        ['team', 'people', 'calendar'],
        write(ctx, 'While {person} is out, {backup} <covers> {duty}.', leaveV),
        cover,
      );
      ask(
        ctx,
        'multi-hop',
        'multi:owner-cover',
        [
          'Who <covers> for the {project} {componentAsk} <owner> while they are away?',
          "Who stands in for the person who owns {project}'s {componentAsk}?",
        ],
        leaveV,
        '{backup}',
        [owner, cover],
      );
    }
  });
  {
    const v: Vars = {
      codename: pick(rng, V.codenames),
      metric: pick(rng, V.metrics),
      value: pick(rng, V.values),
      ...named(rng, pick(rng, DATASETS), 'dataset'),
      ...named(rng, pick(rng, MODELS), 'model'),
    };
    const intro = handle(ctx, 'codename');
    const introDay = int(rng, 0, days - 3);
    note(
      ctx,
      introDay,
      ['data', 'datasets', 'eval results'],
      write(ctx, '[Calling|Code name for] the <cleaned> {datasetSay}: {codename}.', v),
      intro,
    );
    const result = handle(ctx, 'codename-result');
    note(
      ctx,
      int(rng, introDay + 1, days - 1),
      ['eval results', 'metrics', 'experiments'],
      write(ctx, '{codename} [results|numbers]: {metric} {value} with the {modelSay}.', v),
      result,
    );
    ask(
      ctx,
      'multi-hop',
      'multi:codename',
      [
        'What {metric} did the <cleaned> {datasetAsk} give with the {project} {modelAsk}?',
        "How did {project}'s {modelAsk} score on the <cleaned> {datasetAsk}?",
      ],
      v,
      '{value}',
      [intro, result],
    );
  }
  {
    const v: Vars = {
      newbie: pick(
        rng,
        PEOPLE.filter((person) => !team.includes(person)),
      ),
      team: pick(rng, V.teams),
      finding: pick(rng, V.findings),
    };
    const intro = handle(ctx, 'newcomer');
    const introDay = int(rng, 0, days - 3);
    note(
      ctx,
      introDay,
      ['team', 'people', 'onboarding'],
      write(ctx, '{newbie} [joined us|moved over] from the {team} team [this week|today].', v),
      intro,
    );
    const found = handle(ctx, 'newcomer-finding');
    note(
      ctx,
      int(rng, introDay + 1, days - 1),
      ['bug triage', 'daily notes', 'findings'],
      write(ctx, '{newbie} <found> {finding}.', v),
      found,
    );
    ask(
      ctx,
      'multi-hop',
      'multi:newcomer',
      [
        'What did the engineer who came to {project} from the {team} team <find_q>?',
        "What did {project}'s new colleague from {team} <find_q>?",
      ],
      v,
      '{finding}',
      [intro, found],
    );
  }
  if (rng() < 0.6) {
    const v: Vars = {
      vendor: pick(rng, V.vendors),
      ext: pick(rng, V.externals),
      thing: pick(rng, V.vendorThings),
      month: pick(rng, V.months),
    };
    const intro = handle(ctx, 'vendor-contact');
    const introDay = int(rng, 0, days - 3);
    note(
      ctx,
      introDay,
      ['vendor call', 'partner sync', 'contacts'],
      write(ctx, 'Our <contact> at {vendor} is {ext}.', v),
      intro,
    );
    const said = handle(ctx, 'vendor-news');
    note(
      ctx,
      int(rng, introDay + 1, days - 1),
      ['vendor call', 'status', 'partner sync'],
      write(ctx, '{ext} [says|confirmed] the {thing} [slips to|will ship in] {month}.', v),
      said,
    );
    ask(
      ctx,
      'multi-hop',
      'multi:vendor-news',
      ["When is {vendor}'s {thing} coming, according to {project}'s <contact> there?"],
      v,
      '{month}',
      [intro, said],
    );
  }

  // Threads: many notes with the same words, a few details asked about.
  for (const thread of sample(rng, THREADS, 2)) {
    const tv = thread.vars(ctx);
    const notes: { day: number; handle: string }[] = [];
    for (let i = 0, n = int(rng, 10, 14); i < n; i++) {
      const h = handle(ctx, `${thread.id}-chatter${i}`);
      const day = anyDay();
      note(
        ctx,
        day,
        thread.headings,
        write(ctx, pick(rng, thread.chatter), { ...thread.vars(ctx), ...subjectOf(tv) }),
        h,
      );
      notes.push({ day, handle: h });
    }
    sample(rng, thread.distinct.things, thread.distinct.count).forEach((thing, index) => {
      const v = { ...tv, ...thread.detail.vars(ctx), ...named(rng, thing, thread.distinct.key), ...subjectOf(tv) };
      const h = handle(ctx, `${thread.id}${index}`);
      const day = anyDay();
      note(ctx, day, thread.headings, write(ctx, thread.detail.say, v), h);
      notes.push({ day, handle: h });
      ask(ctx, 'distractor', `thread:${thread.id}`, thread.detail.ask, v, thread.detail.answer, [h]);
    });
    // A thread's note links to the previous note of the thread now and then.
    notes.sort((a, b) => a.day - b.day);
    for (let i = 1; i < notes.length; i++) {
      if (rng() < 0.4)
        ctx.links.push({
          from: (notes[i] as { handle: string }).handle,
          to: (notes[i - 1] as { handle: string }).handle,
          type: 'RELATED_TO',
          weight: 0.5,
        });
    }
  }

  const filler = (r: Rng, session: number): PlannedItem[] => {
    const [p1, p2] = sample(r, team, 2) as [string, string];
    const f = pick(r, FILLERS);
    const v: Vars = {
      p1,
      p2,
      weekday: pick(r, V.weekdays),
      team: pick(r, V.teams),
      reading: pick(r, V.readings),
      componentSay: pick(r, pick(r, ctx.components)),
    };
    const event = note(ctx, session, f.headings, write(ctx, f.body, v));
    ctx.events.pop();
    return event.items;
  };

  return {
    name: `project ${pad2(group + 1)} (${project})`,
    tag: `p${pad2(group + 1)}`,
    sessions: days,
    events: ctx.events,
    filler,
    sessionEvents: (r) => int(r, 11, 17),
    links: ctx.links,
    questions: ctx.questions,
  };
}
