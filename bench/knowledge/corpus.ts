/**
 * Deterministic text for the knowledge-base bench: company documentation written from a word
 * list, so that a query can be made to hit many chunks, a few, one, or none.
 *
 * - `general` words (real ones, Zipf-weighted) are 30 % of every text: the first few are in about
 *   half of all chunks, the last ones in 6 %; made-up `tail` words are another 46 %, from one
 *   chunk in seven to one in two hundred;
 * - each document has a topic, and a quarter of its words come from that topic's list (a topic
 *   word is in about one chunk in forty);
 * - `rare` words are sprinkled into one sentence in a few thousand (about one chunk in a thousand);
 * - every chunk carries a reference code (`ref<id>`) found in that chunk only;
 * - `absent` words are never written.
 */

/** Mulberry32: a small, fast, seeded generator (the same seed, the same text). */
export const prng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const general = `
team project customer account report system process data service support user change
policy update review plan time work request issue release access version security
meeting budget quarter goal decision owner partner product feature price cost invoice
payment contract office document file storage backup network server database query
performance error incident response schedule deadline priority task milestone risk
training onboarding manager engineer designer analyst sales marketing finance legal
operations hardware software laptop phone email calendar message channel ticket
escalation approval signature vendor supplier shipment order delivery warehouse
inventory region market growth revenue margin forecast target metric dashboard survey
feedback interview research experiment result summary analysis conclusion proposal
draft template guideline standard checklist audit compliance retention privacy consent
password login session permission role group admin setting configuration integration
migration deployment environment staging production monitoring alert log trace
capacity latency throughput availability outage maintenance window rollback patch
upgrade license subscription renewal discount refund credit balance statement tax
travel expense receipt reimbursement allowance holiday leave benefit salary payroll
hiring candidate offer contractor employee department headquarters branch building
floor desk parking visitor badge equipment furniture printer supplies kitchen coffee
lunch event conference workshop webinar presentation slide video recording transcript
article blog newsletter website page link search index catalog category tag label
note comment question answer idea suggestion improvement problem solution workaround
bug fix test quality sprint backlog roadmap strategy vision mission value
culture community volunteer sustainability energy carbon emission recycling waste
water garden bicycle commute remote hybrid timezone weekly monthly annual daily
morning afternoon evening week month year spring summer autumn winter start finish
open close create delete move copy share export import sync archive restore verify
approve reject assign track measure estimate compare improve reduce increase prepare
`
  .trim()
  .split(/\s+/);

/** Forty topics; a document is about one of them. */
export const topics: string[][] = `
refund prorated chargeback cancellation annual monthly reimbursed dispute
kubernetes cluster pod container helm ingress node autoscaler
mortgage lender appraisal escrow closing lien underwriting amortization
vaccine immunization dose clinic pediatric booster allergy nurse
espresso barista roast grinder crema latte arabica brewing
glacier moraine fjord crevasse iceberg meltwater tundra permafrost
violin orchestra symphony conductor rehearsal cello sonata concerto
tractor harvest irrigation fertilizer seedling orchard greenhouse compost
telescope galaxy nebula asteroid comet orbit eclipse observatory
sourdough flour yeast dough oven crust proofing loaf
marathon sprinter relay stadium hurdle javelin podium medal
volcano magma lava eruption crater ash caldera tremor
submarine sonar periscope torpedo hull ballast dive captain
wedding bride groom bouquet ceremony reception vows veil
chess bishop rook knight gambit checkmate opening endgame
pottery kiln glaze clay wheel ceramic porcelain stoneware
beekeeping hive honey queen swarm pollen beeswax apiary
railway locomotive carriage platform timetable signal junction freight
photosynthesis chlorophyll leaf stomata glucose xylem phloem sunlight
cryptography cipher encryption signature hash certificate keypair nonce
dentist molar cavity filling enamel braces orthodontist floss
lighthouse harbor pier tide buoy vessel anchor coastline
skateboard ramp trick grind kickflip deck halfpipe helmet
parliament senate ballot election legislation amendment committee quorum
knitting yarn needle stitch pattern wool sweater scarf
aquarium reef coral anemone plankton seahorse lagoon tropical
firefighter hydrant ladder smoke rescue siren evacuation extinguisher
origami crane fold paper crease sculpture model geometry
chandelier candle lantern lamp bulb wattage dimmer fixture
saxophone jazz improvisation quartet bassist drummer swing trumpet
pharmacy prescription tablet dosage pharmacist generic capsule ointment
carpentry timber joinery chisel dovetail plank sawdust workbench
satellite antenna bandwidth frequency transponder uplink downlink spectrum
mountaineering summit ridge crampon rope belay altitude basecamp
perfume fragrance scent musk vanilla citrus bottle lavender
archaeology excavation artifact pottery fossil ruins trench dig
tailor fabric seam hem suit measurement linen thread
vineyard grape wine cellar barrel vintage sommelier tasting
robotics actuator sensor servo gripper controller lidar kinematics
calligraphy ink brush script letterform quill parchment stroke
`
  .trim()
  .split('\n')
  .map((line) => line.trim().split(/\s+/));

export const rare = `
zeppelin obsidian quasar tamarind marzipan kaleidoscope nocturne palimpsest
sextant filigree mandolin gondola harpsichord labyrinth meerkat narwhal
ocelot pangolin quokka rhubarb saffron tarantula ukulele wombat yodel zucchini
`
  .trim()
  .split(/\s+/);

/** Words no chunk contains. */
export const absent = ['xylograph', 'quixotism', 'zugzwangish', 'brontosaurian'];

/**
 * The long tail of the vocabulary: 6,000 made-up words of two or three syllables (names of
 * products, places and people in real documents play this part). Each is in about one chunk in a
 * hundred.
 */
export const tail: string[] = (() => {
  const random = prng(7);
  const onsets = 'b c d f g h j k l m n p r s t v w z br cl dr fl gr pl st tr sh ch'.split(' ');
  const vowels = 'a e i o u ai ea ou'.split(' ');
  const codas = ['', '', 'n', 'r', 'l', 's', 'm', 't', 'nd', 'st', 'rk'];
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  const taken = new Set([...general, ...topics.flat()]);
  const out: string[] = [];
  while (out.length < 6000) {
    const syllables = 2 + (random() < 0.4 ? 1 : 0);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(onsets) + pick(vowels) + pick(codas);
    if (!taken.has(word)) {
      taken.add(word);
      out.push(word);
    }
  }
  return out;
})();

/** Cumulative weights 1 / (rank + offset): a Zipf–Mandelbrot law, flat at the head. */
const cumulative = (n: number, offset: number) => {
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1 + offset);
    out.push(sum);
  }
  return out;
};
const generalWeights = cumulative(general.length, 30);
const tailWeights = cumulative(tail.length, 100);

/** Draws from `list` by its cumulative weights (binary search). */
const draw = (random: () => number, list: string[], weights: number[]) => {
  const x = random() * weights[weights.length - 1]!;
  let lo = 0;
  let hi = weights.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (weights[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return list[lo]!;
};

/**
 * `count` content words of a text about `topic`: 22 % from the topic, 2 % from another topic,
 * 30 % common words (the most common in about half of all chunks, the least in 6 %), the rest
 * from the long tail.
 */
const words = (random: () => number, topic: string[], count: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = random();
    if (r < 0.22) out.push(topic[Math.floor(random() * topic.length)]!);
    else if (r < 0.24) {
      const other = topics[Math.floor(random() * topics.length)]!;
      out.push(other[Math.floor(random() * other.length)]!);
    } else if (r < 0.54) out.push(draw(random, general, generalWeights));
    else out.push(draw(random, tail, tailWeights));
  }
  return out;
};

const fillers = ['the', 'a', 'of', 'to', 'and', 'for', 'with', 'in', 'on', 'is', 'that'];

/** One sentence of `n` content words, with a few stop words between them. */
const sentence = (random: () => number, topic: string[], n: number): string => {
  const content = words(random, topic, n);
  if (random() < 0.004) content.splice(1, 0, rare[Math.floor(random() * rare.length)]!);
  const out: string[] = [];
  for (const w of content) {
    if (random() < 0.45) out.push(fillers[Math.floor(random() * fillers.length)]!);
    out.push(w);
  }
  const text = out.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
};

/**
 * The text of chunk `id` (a whole number; the same number, the same text) of a document about
 * `topic`: 80 to 320 words (the chunker's pieces are up to 400 tokens), paragraphs of sentences,
 * with its reference code.
 */
export const chunkText = (id: number, topic: number): string => {
  // Math.imul: the low 32 bits of id × 2654435761, exact for any id.
  const random = prng(Math.imul(id, 2654435761) + 17);
  const t = topics[topic % topics.length]!;
  const target = 60 + Math.floor(random() * 180);
  const paragraphs: string[] = [];
  let written = 0;
  let paragraph: string[] = [];
  while (written < target) {
    const n = 6 + Math.floor(random() * 12);
    paragraph.push(sentence(random, t, n));
    written += n;
    if (paragraph.length >= 3 + Math.floor(random() * 4)) {
      paragraphs.push(paragraph.join(' '));
      paragraph = [];
    }
  }
  if (paragraph.length > 0) paragraphs.push(paragraph.join(' '));
  paragraphs[paragraphs.length - 1] += ` Reference ref${id}.`;
  return paragraphs.join('\n\n');
};

const title = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;

/** The heading path of chunk `ord` of a document about `topic`. */
export const headingPath = (topic: number, ord: number): string[] => {
  const t = topics[topic % topics.length]!;
  return [`${title(t[0]!)} guide`, `${title(t[(ord >> 2) % t.length]!)} ${general[ord % 40]}`];
};

/**
 * A Markdown document about `topic`: `sections` sections of a few paragraphs each, the text of
 * section `s` being chunk `firstId + s`'s.
 */
export const markdownDocument = (firstId: number, topic: number, sections: number): string => {
  const t = topics[topic % topics.length]!;
  const parts = [`# ${title(t[0]!)} guide`];
  for (let s = 0; s < sections; s++) {
    parts.push(`## ${title(t[s % t.length]!)} ${general[(topic + s) % 60]}`);
    parts.push(chunkText(firstId + s, topic));
  }
  return parts.join('\n\n');
};
