import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { maskKey } from '../../crypto/secret-box.ts';
import type { Db } from '../client.ts';
import { mcpServers, mcpTools } from '../schema/index.ts';

export type McpServerRow = typeof mcpServers.$inferSelect;
export type McpToolRow = typeof mcpTools.$inferSelect;

/** A tool as a sync reads it from the server, with the hash of that definition. */
export type McpSyncedTool = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  hash: string;
};

export type McpServerFields = {
  name: string;
  url: string;
  auth: 'none' | 'bearer' | 'oauth';
};

/**
 * What an OAuth server keeps, sealed as one JSON in `token`: the client registration, the
 * tokens, the PKCE verifier and the sign-in under way (its `state`, bound to the user, single
 * use, expiring). Never sent back nor logged.
 */
export type McpOAuthState = {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms since the epoch). */
  tokens_at?: number;
  verifier?: string;
  discovery?: OAuthDiscoveryState;
  pending?: { nonce: string; user_id: string; expires_at: number; authorize_url: string | null };
};

/** The clear hint of an OAuth server: whether it is signed in, and until when. */
const oauthHint = (state: McpOAuthState) => {
  const { tokens, tokens_at: at } = state;
  if (!tokens) return 'OAuth';
  if (tokens.expires_in !== undefined && at !== undefined) {
    return `OAuth, signed in until ${new Date(at + tokens.expires_in * 1000).toISOString()}`;
  }
  return 'OAuth, signed in';
};

/**
 * Whether a model may call the tool now. `enabled` keeps the user's choice; a tool whose
 * definition changed (pending) or that the server no longer lists is off whatever it says, so
 * approving a change turns a tool back on only when the user had it on.
 */
export const isToolUsable = (tool: McpToolRow): boolean =>
  tool.enabled && !tool.removed && tool.pending_hash === null;

/**
 * A user's remote MCP servers and their tools (issue 18 point 5); every query is scoped to
 * `userId`. Bearer tokens (and the OAuth state) are sealed with the provider-key box and only a
 * hint is kept in clear.
 */
export class McpRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
    private readonly box: SecretBox,
  ) {}

  private mine(id: string) {
    return and(eq(mcpServers.id, id), eq(mcpServers.user_id, this.userId));
  }

  private myTool(serverId: string, toolId: string) {
    return and(
      eq(mcpTools.id, toolId),
      eq(mcpTools.server_id, serverId),
      eq(mcpTools.user_id, this.userId),
    );
  }

  listServers(): Promise<McpServerRow[]> {
    return this.db
      .select()
      .from(mcpServers)
      .where(eq(mcpServers.user_id, this.userId))
      .orderBy(desc(mcpServers.created_at), mcpServers.id);
  }

  async getServer(id: string): Promise<McpServerRow | null> {
    const [row] = await this.db.select().from(mcpServers).where(this.mine(id));
    return row ?? null;
  }

  async countServers(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(mcpServers)
      .where(eq(mcpServers.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  /** The token sealed, and its hint; null for none. */
  private sealedToken(token: string | null) {
    return token
      ? { token: this.box.seal(token), token_hint: maskKey(token) }
      : { token: null, token_hint: null };
  }

  async createServer(fields: McpServerFields & { token: string | null }): Promise<McpServerRow> {
    const [row] = await this.db
      .insert(mcpServers)
      .values({
        name: fields.name,
        url: fields.url,
        auth: fields.auth,
        ...this.sealedToken(fields.token),
        user_id: this.userId,
      })
      .returning();
    return row!;
  }

  /** `token`: undefined keeps the stored one, null removes it, a string replaces it. */
  async updateServer(
    id: string,
    patch: Partial<McpServerFields> & { token?: string | null },
  ): Promise<McpServerRow | null> {
    const { token, ...fields } = patch;
    const [row] = await this.db
      .update(mcpServers)
      .set({ ...fields, ...(token !== undefined && this.sealedToken(token)) })
      .where(this.mine(id))
      .returning();
    return row ?? null;
  }

  async removeServer(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(mcpServers)
      .where(this.mine(id))
      .returning({ id: mcpServers.id });
    return rows.length > 0;
  }

  /** The bearer token in clear, to send; null when none is stored (or the server uses OAuth). */
  openToken(server: McpServerRow): string | null {
    return server.auth === 'bearer' && server.token ? this.box.open(server.token) : null;
  }

  /** The OAuth state of a server; empty when it has none (or does not use OAuth). */
  openOAuth(server: McpServerRow): McpOAuthState {
    if (server.auth !== 'oauth' || !server.token) return {};
    try {
      const parsed = JSON.parse(this.box.open(server.token)) as unknown;
      return parsed !== null && typeof parsed === 'object' ? (parsed as McpOAuthState) : {};
    } catch {
      return {};
    }
  }

  /** Stores the OAuth state sealed, with a hint in clear that holds no secret. */
  async saveOAuth(serverId: string, state: McpOAuthState): Promise<McpServerRow | null> {
    const [row] = await this.db
      .update(mcpServers)
      .set({ token: this.box.seal(JSON.stringify(state)), token_hint: oauthHint(state) })
      .where(and(this.mine(serverId), eq(mcpServers.auth, 'oauth')))
      .returning();
    return row ?? null;
  }

  /** Where the user signs in, while a sign-in is under way and not expired; else null. */
  authorizeUrl(server: McpServerRow, now = Date.now()): string | null {
    if (server.auth !== 'oauth' || server.error_code !== 'mcp:authorization_required') return null;
    const { pending } = this.openOAuth(server);
    return pending && pending.expires_at > now ? pending.authorize_url : null;
  }

  /** The tools of these servers (the user's only), by name. */
  listTools(serverIds: readonly string[]): Promise<McpToolRow[]> {
    if (serverIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(mcpTools)
      .where(and(eq(mcpTools.user_id, this.userId), inArray(mcpTools.server_id, [...serverIds])))
      .orderBy(asc(mcpTools.name), mcpTools.id);
  }

  /** The user's server, with one of its tools when it has that one: one read for both. */
  async getServerAndTool(
    serverId: string,
    toolId: string,
  ): Promise<{ server: McpServerRow; tool: McpToolRow | null } | null> {
    const [row] = await this.db
      .select({ server: mcpServers, tool: mcpTools })
      .from(mcpServers)
      .leftJoin(mcpTools, this.myTool(serverId, toolId))
      .where(this.mine(serverId));
    return row ?? null;
  }

  async getTool(serverId: string, toolId: string): Promise<McpToolRow | null> {
    const [row] = await this.db.select().from(mcpTools).where(this.myTool(serverId, toolId));
    return row ?? null;
  }

  /** These tools of the user, each with its server; ids that are not theirs are left out. */
  async toolsWithServers(
    toolIds: readonly string[],
  ): Promise<{ tool: McpToolRow; server: McpServerRow }[]> {
    if (toolIds.length === 0) return [];
    return this.db
      .select({ tool: mcpTools, server: mcpServers })
      .from(mcpTools)
      .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.server_id))
      .where(
        and(
          eq(mcpTools.user_id, this.userId),
          eq(mcpServers.user_id, this.userId),
          inArray(mcpTools.id, [...toolIds]),
        ),
      );
  }

  async recordFailure(
    serverId: string,
    failure: { code: string; message: string },
  ): Promise<McpServerRow | null> {
    const [row] = await this.db
      .update(mcpServers)
      .set({ status: 'error', error_code: failure.code, error_message: failure.message })
      .where(this.mine(serverId))
      .returning();
    return row ?? null;
  }

  /**
   * Records what the server lists now. A new tool is stored off, its first definition counting
   * as seen; a tool whose definition hashes otherwise keeps the approved one and holds the new
   * one as pending (so it is off until approved); a tool no longer listed is marked removed and
   * turned off; a pending change the server took back is dropped.
   */
  async applySync(
    serverId: string,
    transport: 'streamable-http' | 'sse',
    listed: readonly McpSyncedTool[],
  ): Promise<McpServerRow | null> {
    return this.db.transaction(async (tx) => {
      const [server] = await tx
        .update(mcpServers)
        .set({
          status: 'ok',
          transport,
          error_code: null,
          error_message: null,
          last_synced_at: new Date(),
        })
        .where(this.mine(serverId))
        .returning();
      if (!server) return null;
      const stored = await tx
        .select()
        .from(mcpTools)
        .where(and(eq(mcpTools.server_id, serverId), eq(mcpTools.user_id, this.userId)));
      const byName = new Map(stored.map((tool) => [tool.name, tool]));
      const seen = new Set<string>();
      for (const tool of listed) {
        if (seen.has(tool.name)) continue;
        seen.add(tool.name);
        const row = byName.get(tool.name);
        if (!row) {
          await tx.insert(mcpTools).values({
            server_id: serverId,
            user_id: this.userId,
            name: tool.name,
            description: tool.description,
            input_schema: tool.inputSchema,
            hash: tool.hash,
            enabled: false,
          });
          continue;
        }
        const same = row.hash === tool.hash;
        if (same && !row.removed && row.pending_hash === null) continue;
        await tx
          .update(mcpTools)
          .set({
            removed: false,
            pending_description: same ? null : tool.description,
            pending_input_schema: same ? null : tool.inputSchema,
            pending_hash: same ? null : tool.hash,
          })
          .where(eq(mcpTools.id, row.id));
      }
      const gone = stored.filter((tool) => !seen.has(tool.name) && !tool.removed);
      if (gone.length > 0) {
        await tx
          .update(mcpTools)
          .set({
            removed: true,
            enabled: false,
            pending_description: null,
            pending_input_schema: null,
            pending_hash: null,
          })
          .where(
            inArray(
              mcpTools.id,
              gone.map((tool) => tool.id),
            ),
          );
      }
      return server;
    });
  }

  /** The user's choice; the caller checks first that a tool being turned on is usable. */
  async setToolEnabled(
    serverId: string,
    toolId: string,
    enabled: boolean,
  ): Promise<McpToolRow | null> {
    const [row] = await this.db
      .update(mcpTools)
      .set({ enabled })
      .where(this.myTool(serverId, toolId))
      .returning();
    return row ?? null;
  }

  /**
   * Makes the pending definition the approved one when `hash` is the pending one's (checked in
   * the update itself, so a change that lands meanwhile is never approved unseen).
   */
  async approveTool(
    serverId: string,
    toolId: string,
    hash: string,
  ): Promise<
    | { outcome: 'approved'; tool: McpToolRow }
    | { outcome: 'nothing_pending' | 'stale' | 'not_found' }
  > {
    const current = await this.getTool(serverId, toolId);
    if (!current) return { outcome: 'not_found' };
    if (current.pending_hash === null || current.pending_input_schema === null) {
      return { outcome: 'nothing_pending' };
    }
    if (current.pending_hash !== hash) return { outcome: 'stale' };
    const [row] = await this.db
      .update(mcpTools)
      .set({
        description: current.pending_description ?? '',
        input_schema: current.pending_input_schema,
        hash: current.pending_hash,
        pending_description: null,
        pending_input_schema: null,
        pending_hash: null,
      })
      .where(and(this.myTool(serverId, toolId), eq(mcpTools.pending_hash, hash)))
      .returning();
    return row ? { outcome: 'approved', tool: row } : { outcome: 'stale' };
  }

  /** A definition change found outside a sync (when a run or a try connects): held as pending. */
  async markToolChanged(
    toolId: string,
    definition: { description: string; inputSchema: Record<string, unknown>; hash: string },
  ): Promise<void> {
    await this.db
      .update(mcpTools)
      .set({
        pending_description: definition.description,
        pending_input_schema: definition.inputSchema,
        pending_hash: definition.hash,
      })
      .where(and(eq(mcpTools.id, toolId), eq(mcpTools.user_id, this.userId)));
  }

  /** A tool the server no longer lists, found outside a sync. */
  async markToolRemoved(toolId: string): Promise<void> {
    await this.db
      .update(mcpTools)
      .set({ removed: true, enabled: false })
      .where(and(eq(mcpTools.id, toolId), eq(mcpTools.user_id, this.userId)));
  }
}
