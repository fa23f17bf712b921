/**
 * Spec §3 "scenario stats": a hard-coded sample list with title, clicks and percentage, not
 * fetched. The page says they are sample figures.
 */
export const sampleScenarioStats = [
  { title: 'Summarise a long report', clicks: 1_284, percentage: 27 },
  { title: 'Review a pull request', clicks: 972, percentage: 21 },
  { title: 'Draft a customer reply', clicks: 811, percentage: 17 },
  { title: 'Translate product copy', clicks: 645, percentage: 14 },
  { title: 'Explain an error message', clicks: 533, percentage: 11 },
  { title: 'Write SQL from a question', clicks: 467, percentage: 10 },
] as const;
