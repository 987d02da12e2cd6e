// Words, names and message text for the data set: a Zipf-distributed vocabulary, so that
// full-text search finds common words in many messages and rare ones in a few.
import { Rng, WeightedPicker, zipfWeights } from './random.js';

const FUNCTION_WORDS = (
  'the to and a of i it is for that on in we you this be with can have not but so just if at will are do ' +
  'was think should about there what from as or now me get my all they one out up like would also some ' +
  'more when then yes no still any our by an how here did see its new'
).split(' ');

export const DOMAIN_WORDS = (
  'build test review merge branch server client database query index latency cache memory disk network ' +
  'timeout retry error warning crash bug fix patch feature flag config setting option schema migration ' +
  'table column row backup restore upgrade version package dependency library framework compiler runtime ' +
  'thread process queue worker job task ticket issue milestone sprint backlog estimate priority blocker ' +
  'meeting agenda notes summary decision proposal draft document spec outline diagram chart slide demo ' +
  'customer user account invoice payment contract renewal pricing discount trial signup onboarding churn ' +
  'revenue budget forecast quarter target goal metric dashboard report analysis survey feedback interview ' +
  'design layout colour font icon mockup prototype wireframe sketch palette contrast spacing grid theme ' +
  'mobile desktop browser tablet android iphone laptop monitor keyboard screen window button menu dialog ' +
  'search filter sort export import upload download sync login logout password token session permission ' +
  'role admin owner guest member team group channel topic thread message reply reaction mention emoji ' +
  'lunch coffee breakfast dinner weekend holiday vacation office remote travel flight hotel conference ' +
  'hiring candidate offer salary benefits policy handbook training mentor intern manager director ' +
  'monday tuesday wednesday thursday friday morning afternoon evening tomorrow yesterday today week month ' +
  'deadline launch announcement newsletter blog website landing campaign audience partner vendor supplier ' +
  'incident outage alert pager oncall postmortem runbook rollback hotfix staging production canary cluster ' +
  'kubernetes container image registry pipeline runner artifact coverage benchmark profile flamegraph ' +
  'performance throughput memory leak garbage allocation regression baseline experiment hypothesis result ' +
  'question answer idea plan problem solution approach tradeoff risk concern update status progress blocked ' +
  'happy sorry thanks great awesome nice cool interesting weird strange simple complex quick slow fast ' +
  'tomato garden bicycle football weather rain snow sunny music movie podcast book recipe pizza'
).split(/\s+/);

/** A word common enough that a search for it returns many pages of results. */
export const COMMON_SEARCH_WORD = 'release';
const COMMON_WORD_RANK = 120;
/** Made-up words are each rarer than real ones of the same rank. */
const PSEUDO_WORD_WEIGHT = 0.25;

const FIRST_NAMES = (
  'Ada Alan Alice Amara Anton Aria Arjun Beatriz Ben Bianca Boris Carla Carlos Chen Chloe Dana Daniel Diego ' +
  'Elena Emeka Emil Eva Farah Felix Fatima Gabriel Grace Hana Hugo Ines Ivan Jade Jamal Jana Javier Jin ' +
  'Jonas Julia Kai Karin Kenji Lara Leo Lina Lucas Luisa Malik Maria Mateo Maya Mei Mila Nadia Nia Noah ' +
  'Nora Olga Omar Oscar Paula Pedro Priya Quinn Rafael Rania Rosa Sami Sara Sofia Tariq Tess Theo Uma ' +
  'Vera Victor Wei Yara Yusuf Zane Zoe'
).split(/\s+/);

const LAST_NAMES = (
  'Abara Andersen Baptiste Becker Bianchi Castro Chowdhury Costa Dahl Dubois Eriksen Ferreira Fischer ' +
  'Garcia Gupta Haddad Hansen Horvat Ibrahim Ito Jansen Kaur Kim Kowalski Kuznetsov Larsen Lehmann Lopez ' +
  'Mbeki Meyer Moreau Murphy Nakamura Nguyen Novak Okafor Olsen Park Patel Petrov Quist Rahman Reyes ' +
  'Rossi Sato Schmidt Silva Singh Sousa Tanaka Torres Ulrich Varga Vogel Wagner Wang Weber Xu Yamamoto ' +
  'Yilmaz Zhang Zimmermann'
).split(/\s+/);

const TEAM_STREAMS = (
  'announcements random engineering design product marketing sales support operations infrastructure ' +
  'security mobile frontend backend data-science machine-learning quality docs people finance legal ' +
  'recruiting social help devops releases incidents on-call analytics growth partnerships research ' +
  'platform api billing integrations localization accessibility performance testing hardware field-ops'
).split(/\s+/);

const CITIES = 'berlin lagos lisbon london madrid mumbai nairobi oslo paris seoul sydney tokyo toronto warsaw'.split(' ');

const SYLLABLES = 'ka lo mi ra tu ven sel dor pa ni qua zen bri to fa lu mor tek vi sa no gre hal pim ros ul yon ex ar'.split(' ');

const EMOJI: ReadonlyArray<[string, string]> = [
  ['+1', '1f44d'], ['heart', '2764'], ['tada', '1f389'], ['smile', '1f604'], ['joy', '1f602'], ['eyes', '1f440'],
  ['check', '2714'], ['rocket', '1f680'], ['thinking', '1f914'], ['pray', '1f64f'], ['fire', '1f525'], ['clap', '1f44f'],
];

/** Made-up words for the long tail: product names, code names, typos. */
function pseudoWords(rng: Rng, count: number, taken: Set<string>): string[] {
  const out: string[] = [];
  for (let attempts = 0; out.length < count && attempts < count * 20; attempts++) {
    const syllables = rng.int(2, 4);
    let word = '';
    for (let i = 0; i < syllables; i++) word += rng.pick(SYLLABLES);
    if (!taken.has(word)) {
      taken.add(word);
      out.push(word);
    }
  }
  return out;
}

export class TextGenerator {
  readonly vocabulary: string[];
  private readonly wordPicker: WeightedPicker;
  private readonly nameMentions: string[];

  constructor(
    private readonly rng: Rng,
    fullNames: string[],
  ) {
    const domain = rng.shuffle(DOMAIN_WORDS.filter((w) => w !== COMMON_SEARCH_WORD));
    const ranked = [...FUNCTION_WORDS, ...domain];
    ranked.splice(COMMON_WORD_RANK - 1, 0, COMMON_SEARCH_WORD);
    const taken = new Set(ranked);
    this.vocabulary = [...ranked, ...pseudoWords(rng, 3000, taken)];
    const weights = zipfWeights(this.vocabulary.length, 1.0).map((w, i) => (i < ranked.length ? w : w * PSEUDO_WORD_WEIGHT));
    this.wordPicker = new WeightedPicker(weights);
    this.nameMentions = fullNames;
  }

  word(): string {
    return this.vocabulary[this.wordPicker.pick(this.rng)]!;
  }

  /** A word from the meaningful part of the vocabulary (no function words). */
  contentWord(): string {
    for (let i = 0; i < 20; i++) {
      const w = this.word();
      if (!FUNCTION_WORDS.includes(w)) return w;
    }
    return this.rng.pick(DOMAIN_WORDS);
  }

  private sentence(words: number): string {
    const parts: string[] = [];
    for (let i = 0; i < words; i++) parts.push(this.word());
    const text = parts.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1) + this.rng.pick(['.', '.', '.', '?', '!']);
  }

  /** Message content of log-normally distributed length, with the odd link, quote, code block or mention. */
  message(): string {
    const rng = this.rng;
    if (rng.chance(0.01)) return `/me ${this.sentence(rng.int(2, 8)).toLowerCase()}`;
    const total = Math.max(1, Math.min(400, Math.round(rng.logNormal(11, 0.9))));
    const paragraphs: string[] = [];
    let left = total;
    while (left > 0) {
      let paragraph = '';
      const inParagraph = Math.min(left, rng.int(25, 60));
      let used = 0;
      while (used < inParagraph) {
        const n = Math.min(inParagraph - used, rng.int(4, 16));
        paragraph += (paragraph ? ' ' : '') + this.sentence(n);
        used += n;
      }
      paragraphs.push(paragraph);
      left -= inParagraph;
    }
    if (rng.chance(0.04)) paragraphs.unshift(`@**${rng.pick(this.nameMentions)}**`);
    if (rng.chance(0.03)) paragraphs.push(`https://example.com/${this.contentWord()}/${rng.int(1, 99999)}`);
    if (rng.chance(0.005)) paragraphs.push(`https://example.com/images/${this.contentWord()}.png`);
    if (rng.chance(0.02)) paragraphs.unshift(`> ${this.sentence(rng.int(3, 12))}`);
    if (rng.chance(0.01)) paragraphs.push('```\n' + `${this.contentWord()}(${this.contentWord()}, ${rng.int(0, 999)})\n` + '```');
    return paragraphs.join('\n\n');
  }

  /** `count` distinct topic names (distinct case-insensitively), a few marked resolved. */
  topics(count: number): string[] {
    const rng = this.rng;
    const seen = new Set<string>();
    const out: string[] = [];
    for (let attempts = 0; out.length < count && attempts < count * 50; attempts++) {
      let topic: string;
      const kind = rng.next();
      if (kind < 0.4) topic = `${this.contentWord()} ${this.contentWord()}`;
      else if (kind < 0.55) topic = `${this.contentWord()} ${this.contentWord()} ${this.contentWord()}`;
      else if (kind < 0.62) topic = `release ${rng.int(1, 9)}.${rng.int(0, 30)}`;
      else if (kind < 0.72) topic = `issue #${rng.int(100, 99999)}`;
      else if (kind < 0.9) topic = `${rng.pick(['weekly', 'planning:', 'review:', 'notes:', 'ask:'])} ${this.contentWord()}`;
      else topic = this.contentWord();
      if (rng.chance(0.05)) topic = `✔ ${topic}`;
      const key = topic.toLowerCase();
      if (seen.has(key) || topic.length > 60) continue;
      seen.add(key);
      out.push(topic);
    }
    return out;
  }

  emoji(): [string, string] {
    return this.rng.pick(EMOJI);
  }
}

/** `count` distinct "First Last" names. */
export function personNames(rng: Rng, count: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let attempts = 0; out.length < count; attempts++) {
    if (attempts > count * 100) throw new Error(`cannot make ${count} distinct names`);
    let name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    if (seen.has(name)) name = `${name} ${attempts % 97}`;
    if (seen.has(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return out;
}

/** `count` distinct stream names besides "general". */
export function streamNames(rng: Rng, count: number): string[] {
  const names = new Set<string>(['general']);
  const out: string[] = [];
  const add = (name: string) => {
    if (out.length < count && !names.has(name)) {
      names.add(name);
      out.push(name);
    }
  };
  for (const name of TEAM_STREAMS) add(name);
  for (const city of CITIES) add(`${city}-office`);
  const extra = pseudoWords(rng, count * 2, new Set());
  for (let i = 0; out.length < count && i < extra.length; i++) {
    add(`${rng.pick(['team', 'proj', 'wg', 'squad', 'ext'])}-${extra[i]}`);
  }
  return out;
}
