type Curated = { featured: boolean; created_at: string };

/** Featured entries first, then the newest; at most `count`. ISO times of one format sort as text. */
export const featuredFirst = <T extends Curated>(items: readonly T[], count: number): T[] =>
  [...items]
    .sort(
      (a, b) => Number(b.featured) - Number(a.featured) || b.created_at.localeCompare(a.created_at),
    )
    .slice(0, count);
