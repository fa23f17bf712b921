/**
 * Whether `id` is a UUID: ids from a URL are checked before a query, so a malformed one is a 404
 * like any unknown id, never a database cast error (a 500).
 */
export const isUuid = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
