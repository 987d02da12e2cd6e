// The shape of the benchmark organization, decided up front from a seed: who exists, who
// subscribes where, how busy each stream and topic is, and who talks to whom directly.
import { Role } from '../../src/lib/roles.js';
import { Rng, WeightedPicker, zipfWeights } from './random.js';
import { personNames, streamNames, TextGenerator } from './text.js';

export interface PlanOptions {
  users: number;
  streams: number;
  messages: number;
  /** Share of messages that are direct messages (one-on-one, group, self). */
  directShare: number;
  seed: number;
}

export interface PlannedUser {
  email: string;
  fullName: string;
  role: number;
  isBot: boolean;
  /** How much this person talks, relative to others. */
  activity: number;
}

export interface PlannedStream {
  name: string;
  inviteOnly: boolean;
  historyPublic: boolean;
  /** Indexes into Plan.users; stream 0 ("general") is everyone's default stream. */
  subscribers: number[];
  /** Expected share of all stream messages. */
  weight: number;
  topics: string[];
}

export interface PlannedGroup {
  members: number[];
}

export interface Plan {
  options: PlanOptions;
  users: PlannedUser[];
  streams: PlannedStream[];
  /** One-on-one conversations: pairs of user indexes, most talkative first. */
  pairs: Array<[number, number]>;
  groups: PlannedGroup[];
  text: TextGenerator;
}

const EMAIL_DOMAIN = 'bench.confab.test';
const BOT_NAMES = ['CI Bot', 'Deploy Bot', 'Alerts Bot', 'Standup Bot', 'Tracker Bot'];

function emailFor(name: string, taken: Set<string>): string {
  const local = name.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '');
  let email = `${local}@${EMAIL_DOMAIN}`;
  for (let n = 2; taken.has(email) && n < 10_000; n++) email = `${local}.${n}@${EMAIL_DOMAIN}`;
  taken.add(email);
  return email;
}

function roleFor(index: number, total: number): number {
  if (index === 0) return Role.OWNER;
  if (index <= Math.max(1, Math.round(total * 0.004))) return Role.ADMINISTRATOR;
  if (index <= Math.max(2, Math.round(total * 0.02))) return Role.MODERATOR;
  if (index >= total - Math.round(total * 0.05)) return Role.GUEST;
  return Role.MEMBER;
}

function planUsers(rng: Rng, count: number): PlannedUser[] {
  const names = personNames(rng, count);
  const taken = new Set<string>(['owner@' + EMAIL_DOMAIN]);
  const humans = names.map((fullName, i) => ({
    email: i === 0 ? `owner@${EMAIL_DOMAIN}` : emailFor(fullName, taken),
    fullName,
    role: roleFor(i, count),
    isBot: false,
    activity: rng.logNormal(1, 1),
  }));
  const bots = BOT_NAMES.map((fullName) => ({
    email: emailFor(fullName.replace(' ', '-'), taken),
    fullName,
    role: Role.MEMBER,
    isBot: true,
    activity: 3,
  }));
  return [...humans, ...bots];
}

/** Skewed sizes: the r-th biggest stream has about users/r subscribers, at least 5. */
function streamSizes(rng: Rng, users: number, streams: number): number[] {
  const sizes = [users];
  for (let rank = 2; rank <= streams; rank++) {
    const noisy = (users / rank) * rng.logNormal(1, 0.25);
    sizes.push(Math.max(Math.min(5, users), Math.min(users, Math.round(noisy))));
  }
  // The send benchmark wants a stream of exactly 50 subscribers.
  if (users >= 50) {
    let closest = 1;
    sizes.forEach((s, i) => {
      if (i > 0 && Math.abs(s - 50) < Math.abs(sizes[closest]! - 50)) closest = i;
    });
    sizes[closest] = 50;
  }
  return sizes;
}

/** Mid-sized team streams are the busiest; huge announcement streams and tiny ones are quieter. */
function volumeWeight(size: number): number {
  return Math.pow(size, 0.6) / (1 + Math.pow(size / 50, 1.5));
}

export function makePlan(options: PlanOptions): Plan {
  const rng = new Rng(options.seed);
  const users = planUsers(rng.fork('users'), options.users);
  const humans = users.map((u, i) => ({ u, i })).filter(({ u }) => !u.isBot);
  const text = new TextGenerator(rng.fork('text'), humans.map(({ u }) => u.fullName));
  const streamRng = rng.fork('streams');
  const sizes = streamSizes(streamRng, options.users, options.streams);
  const names = ['general', ...streamNames(streamRng, options.streams - 1)];
  const streamMessages = options.messages * (1 - options.directShare);

  const weights = sizes.map((size) => volumeWeight(size) * streamRng.logNormal(1, 0.6));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const sampleWeights = humans.map(({ u }) => (u.role === Role.GUEST ? 0.05 : u.activity));

  const streams: PlannedStream[] = sizes.map((size, index) => {
    const inviteOnly = index > 0 && streamRng.chance(0.08);
    const subscribers =
      index === 0
        ? humans.map(({ i }) => i)
        : streamRng.weightedSample(humans.map(({ i }) => i), sampleWeights, size).sort((a, b) => a - b);
    const expected = (streamMessages * weights[index]!) / totalWeight;
    const topicCount = Math.max(3, Math.min(300, Math.round(Math.pow(expected, 0.65) / 1.5)));
    return {
      name: names[index]!,
      inviteOnly,
      historyPublic: !inviteOnly || streamRng.chance(0.5),
      subscribers,
      weight: weights[index]! / totalWeight,
      topics: text.topics(topicCount),
    };
  });

  // Integrations post into a few of the bigger team streams.
  users.forEach((user, index) => {
    if (!user.isBot) return;
    const count = streamRng.int(2, 4);
    for (let k = 0; k < count; k++) {
      const stream = streams[streamRng.int(1, Math.min(streams.length - 1, 40))];
      if (stream && !stream.subscribers.includes(index)) stream.subscribers.push(index);
    }
  });

  const dmRng = rng.fork('direct');
  const humanPicker = new WeightedPicker(humans.map(({ u }) => u.activity));
  const pairKeys = new Set<string>();
  const pairs: Array<[number, number]> = [];
  for (let attempts = 0; pairs.length < options.users * 6 && attempts < options.users * 60; attempts++) {
    const a = humans[humanPicker.pick(dmRng)]!.i;
    const b = humans[humanPicker.pick(dmRng)]!.i;
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    if (a === b || pairKeys.has(key)) continue;
    pairKeys.add(key);
    pairs.push([a, b]);
  }
  const groups: PlannedGroup[] = [];
  const groupKeys = new Set<string>();
  for (let attempts = 0; groups.length < Math.ceil(options.users * 0.8) && attempts < options.users * 20; attempts++) {
    const size = Math.min(humans.length, dmRng.chance(0.6) ? 3 : dmRng.int(4, 7));
    const members = new Set<number>();
    for (let guard = 0; members.size < size && guard < size * 20; guard++) members.add(humans[humanPicker.pick(dmRng)]!.i);
    const sorted = [...members].sort((a, b) => a - b);
    const key = sorted.join(',');
    if (sorted.length < 3 || groupKeys.has(key)) continue;
    groupKeys.add(key);
    groups.push({ members: sorted });
  }
  return { options, users, streams, pairs, groups, text };
}

/** Zipf pickers over a plan's conversations, topics and senders. */
export interface Pickers {
  stream: WeightedPicker;
  topic: WeightedPicker[];
  sender: WeightedPicker[];
  pair: WeightedPicker;
  group: WeightedPicker;
  /** Picks an index into `humans`. */
  human: WeightedPicker;
  /** User indexes of the people (not bots). */
  humans: number[];
}

export function makePickers(plan: Plan): Pickers {
  const humanIndexes = plan.users.map((u, i) => (u.isBot ? -1 : i)).filter((i) => i >= 0);
  return {
    stream: new WeightedPicker(plan.streams.map((s) => s.weight)),
    topic: plan.streams.map((s) => new WeightedPicker(zipfWeights(s.topics.length, 1.05))),
    sender: plan.streams.map((s) => new WeightedPicker(s.subscribers.map((i) => plan.users[i]!.activity))),
    pair: new WeightedPicker(zipfWeights(Math.max(1, plan.pairs.length), 0.9)),
    group: new WeightedPicker(zipfWeights(Math.max(1, plan.groups.length), 0.9)),
    human: new WeightedPicker(humanIndexes.map((i) => plan.users[i]!.activity)),
    humans: humanIndexes,
  };
}
