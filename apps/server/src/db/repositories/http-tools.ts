import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { maskKey, type SecretBox } from '../../crypto/secret-box.ts';
import { isUuid } from '../../http/uuid.ts';
import type { Db } from '../client.ts';
import { httpTools } from '../schema/index.ts';
import { isUniqueViolation } from './profiles.ts';

/** A stored HTTP tool; `secret_headers` is sealed and never leaves the server. */
export type HttpToolRow = typeof httpTools.$inferSelect;

/** A header as saved: a secret one with a null value keeps the value stored under its name. */
export type HttpToolHeaderInput = { name: string; value: string | null; secret: boolean };

/** A secret header, opened: for the request only, never for a response or a log. */
export type SecretHeader = { name: string; value: string };

export type HttpToolFields = {
  name: string;
  description: string;
  method: string;
  url_template: string;
  headers: HttpToolHeaderInput[];
  input_schema: Record<string, unknown>;
};

/** The user has a tool of this name already (the unique index said so). */
export class HttpToolNameTakenError extends Error {
  override name = 'HttpToolNameTakenError';
}

/** A secret header with no value, and none stored under its name. */
export class HttpToolSecretMissingError extends Error {
  override name = 'HttpToolSecretMissingError';
  constructor(readonly header: string) {
    super(`The secret header ${header} has no value`);
  }
}

/** Opens a tool's sealed secret headers; none when it has none. */
export const openSecretHeaders = (box: SecretBox, sealed: string | null): SecretHeader[] => {
  if (!sealed) return [];
  const parsed: unknown = JSON.parse(box.open(sealed));
  return Array.isArray(parsed)
    ? parsed.filter(
        (h): h is SecretHeader =>
          typeof (h as SecretHeader)?.name === 'string' &&
          typeof (h as SecretHeader)?.value === 'string',
      )
    : [];
};

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The user's HTTP tools (issue 18); every query is scoped to `userId`. Secret header values are
 * sealed with the secret box on the way in and opened only by `secretHeaders`.
 */
export class HttpToolsRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
    private readonly box: SecretBox,
  ) {}

  private mine(id: string) {
    return and(eq(httpTools.id, id), eq(httpTools.user_id, this.userId));
  }

  list(): Promise<HttpToolRow[]> {
    return this.db
      .select()
      .from(httpTools)
      .where(eq(httpTools.user_id, this.userId))
      .orderBy(desc(httpTools.created_at), httpTools.id);
  }

  async get(id: string): Promise<HttpToolRow | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.db.select().from(httpTools).where(this.mine(id));
    return row ?? null;
  }

  /** The user's tools among `ids`; ids that are not theirs (or not ids) are left out. */
  async getMany(ids: readonly string[]): Promise<HttpToolRow[]> {
    const wanted = [...new Set(ids.filter(isUuid))];
    if (wanted.length === 0) return [];
    return this.db
      .select()
      .from(httpTools)
      .where(and(eq(httpTools.user_id, this.userId), inArray(httpTools.id, wanted)))
      .orderBy(httpTools.name);
  }

  async count(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(httpTools)
      .where(eq(httpTools.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  /** Throws HttpToolSecretMissingError or HttpToolNameTakenError. */
  async create(fields: HttpToolFields): Promise<HttpToolRow> {
    const { headers, ...rest } = fields;
    const stored = this.sealHeaders(headers, []);
    try {
      const [row] = await this.db
        .insert(httpTools)
        .values({ ...rest, ...stored, user_id: this.userId })
        .returning();
      return row!;
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpToolNameTakenError();
      throw error;
    }
  }

  /**
   * Changes the fields given; `headers`, when given, replace the stored ones, a secret header with
   * a null value keeping the value stored under its name. Null when the tool is not the user's.
   */
  async update(
    id: string,
    patch: Partial<HttpToolFields>,
    /** The row as the caller read it already, so that it is not read again. */
    read?: HttpToolRow,
  ): Promise<HttpToolRow | null> {
    if (!isUuid(id)) return null;
    const { headers, ...rest } = patch;
    let stored = {};
    if (headers) {
      const current = read?.id === id ? read : await this.get(id);
      if (!current) return null;
      stored = this.sealHeaders(headers, this.secretHeaders(current));
    }
    try {
      const [row] = await this.db
        .update(httpTools)
        .set({ ...rest, ...stored, updated_at: new Date() })
        .where(this.mine(id))
        .returning();
      return row ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpToolNameTakenError();
      throw error;
    }
  }

  async remove(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const rows = await this.db
      .delete(httpTools)
      .where(this.mine(id))
      .returning({ id: httpTools.id });
    return rows.length > 0;
  }

  /** The tool's secret headers, opened, for the request that sends them. */
  secretHeaders(row: Pick<HttpToolRow, 'secret_headers'>): SecretHeader[] {
    return openSecretHeaders(this.box, row.secret_headers);
  }

  /** The columns for a header list: plain ones as they are, secret ones sealed with hints. */
  private sealHeaders(headers: HttpToolHeaderInput[], previous: SecretHeader[]) {
    const plain: { name: string; value: string }[] = [];
    const secrets: SecretHeader[] = [];
    for (const header of headers) {
      if (!header.secret) {
        plain.push({ name: header.name, value: header.value ?? '' });
        continue;
      }
      const value =
        header.value ?? previous.find((stored) => sameName(stored.name, header.name))?.value;
      if (value === undefined) throw new HttpToolSecretMissingError(header.name);
      secrets.push({ name: header.name, value });
    }
    return {
      headers: plain,
      secret_headers: secrets.length ? this.box.seal(JSON.stringify(secrets)) : null,
      secret_hints: secrets.map(({ name, value }) => ({ name, hint: maskKey(value) })),
    };
  }
}
