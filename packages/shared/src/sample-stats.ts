// Spec §3: "Trend stats and scenario stats: hard-coded sample lists with title, clicks,
// percentage; not fetched." The pages that show them say they are sample figures. They live here
// so the trends page and the model asked about trends (/trends-proxy) read the same lists.

export type SampleStat = { title: string; clicks: number; percentage: number };

/** Spec §3 "trend stats". */
export const sampleTrendStats: readonly SampleStat[] = [
  { title: 'Comparing models side by side', clicks: 2_140, percentage: 24 },
  { title: 'Summarising long documents', clicks: 1_730, percentage: 19 },
  { title: 'Code review and refactoring', clicks: 1_512, percentage: 17 },
  { title: 'Customer support replies', clicks: 1_208, percentage: 13 },
  { title: 'Research with web search', clicks: 1_077, percentage: 12 },
  { title: 'Translation and localisation', clicks: 736, percentage: 8 },
  { title: 'Data questions to SQL', clicks: 629, percentage: 7 },
];

/** Spec §3 "scenario stats". */
export const sampleScenarioStats: readonly SampleStat[] = [
  { title: 'Summarise a long report', clicks: 1_284, percentage: 27 },
  { title: 'Review a pull request', clicks: 972, percentage: 21 },
  { title: 'Draft a customer reply', clicks: 811, percentage: 17 },
  { title: 'Translate product copy', clicks: 645, percentage: 14 },
  { title: 'Explain an error message', clicks: 533, percentage: 11 },
  { title: 'Write SQL from a question', clicks: 467, percentage: 10 },
];
