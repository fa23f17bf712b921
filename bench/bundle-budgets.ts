/**
 * Initial JavaScript budgets (issue 12): KB of gzip (level 9) over every script a cold Chromium
 * fetches until the network is idle. `npx tsx bench/bundle.ts` reports against them, and
 * `npm test` fails when a page goes over (`bench/bundle.ts --check`).
 */
export type BundleBudget = {
  page: string;
  path: string;
  /** Measured as a signed-in user (not an admin). */
  signedIn: boolean;
  /** Text the page shows once it has rendered. */
  ready: string;
  gzipKb: number;
};

export const bundleBudgets: BundleBudget[] = [
  {
    page: 'landing',
    path: '/',
    signedIn: false,
    ready: 'Every AI model your team needs',
    gzipKb: 150,
  },
  { page: 'auth', path: '/auth', signedIn: false, ready: 'Welcome to Chorus', gzipKb: 150 },
  {
    page: 'cookbook',
    path: '/scenarios-cookbook',
    signedIn: false,
    ready: 'Scenarios cookbook',
    gzipKb: 150,
  },
  {
    page: 'home',
    path: '/home',
    signedIn: false,
    ready: 'Every AI model your team uses',
    gzipKb: 150,
  },
  {
    page: 'discover',
    path: '/discover',
    signedIn: false,
    ready: 'Everything shared on this instance',
    gzipKb: 150,
  },
  { page: 'trends', path: '/trends', signedIn: false, ready: 'Popular uses of AI', gzipKb: 150 },
  {
    page: 'help',
    path: '/help',
    signedIn: false,
    ready: 'Frequently asked questions',
    gzipKb: 150,
  },
  {
    page: 'article',
    path: '/help/keys-and-providers',
    signedIn: false,
    ready: 'Which key a call uses',
    gzipKb: 150,
  },
  { page: 'chat', path: '/chat', signedIn: true, ready: 'New chat', gzipKb: 250 },
];

/**
 * The embedded widget's budgets (issue 21), over the built files in apps/web/dist rather than a
 * browser's fetches: the loader a host page includes, and every script the iframe page (the one
 * file served for every /embed/{publicId}) loads — those it names and those they import.
 */
export type EmbedBudget = {
  page: string;
  path: string;
  /** The built file under apps/web/dist: a script, or an HTML page whose scripts are counted. */
  file: string;
  gzipKb: number;
};

export const embedBudgets: EmbedBudget[] = [
  { page: 'embed', path: '/embed.js', file: 'embed.js', gzipKb: 30 },
  { page: 'widget', path: '/embed/{publicId}', file: 'embed.html', gzipKb: 60 },
];
