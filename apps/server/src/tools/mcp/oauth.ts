// OAuth 2.1 for remote MCP servers (issue 18 point 5): authorization code with PKCE, dynamic
// client registration and the metadata discovery the MCP spec uses, all done by the SDK's client
// auth (`auth()`), every request through the outbound guard. What the SDK asks to keep is kept
// sealed in the server's row (McpRepository.saveOAuth); a sign-in under way is bound to the
// user, single use, and expires.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthState, McpRepository, McpServerRow } from '../../db/repositories/mcp.ts';

export const mcpOAuthLimits = {
  /** How long a sign-in link (its `state`) may be used. */
  stateTtlMs: 10 * 60_000,
} as const;

/** Where the authorization server sends the browser back, under the app's public URL. */
export const mcpOAuthCallbackPath = '/rest/v1/mcp-servers/oauth/callback';

export const mcpOAuthRedirectUrl = (appUrl: string) =>
  `${appUrl.replace(/\/+$/, '')}${mcpOAuthCallbackPath}`;

/** `<server id>.<nonce>`: the server is found by id among the signed-in user's own. */
export const parseOAuthState = (state: string): { serverId: string; nonce: string } | null => {
  const at = state.indexOf('.');
  if (at <= 0 || at === state.length - 1 || state.length > 200) return null;
  return { serverId: state.slice(0, at), nonce: state.slice(at + 1) };
};

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Whether `nonce` is the sign-in under way for this user, and not expired. */
export const isPendingSignIn = (
  state: McpOAuthState,
  userId: string,
  nonce: string,
  now = Date.now(),
): boolean => {
  const { pending } = state;
  return (
    !!pending &&
    pending.user_id === userId &&
    pending.expires_at > now &&
    sameText(pending.nonce, nonce)
  );
};

/**
 * The SDK's view of one stored server's OAuth state. Each change is written through at once, so
 * a sign-in started here can be finished by another request (the callback).
 */
export class StoredMcpOAuthProvider implements OAuthClientProvider {
  private current: McpOAuthState;

  constructor(
    private readonly repo: McpRepository,
    private readonly server: McpServerRow,
    private readonly redirect: string,
  ) {
    this.current = repo.openOAuth(server);
  }

  private async persist() {
    await this.repo.saveOAuth(this.server.id, this.current);
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Chorus',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** A new sign-in: a fresh nonce, bound to the user, expiring. */
  state(): string {
    const nonce = randomBytes(24).toString('base64url');
    this.current.pending = {
      nonce,
      user_id: this.repo.userId,
      expires_at: Date.now() + mcpOAuthLimits.stateTtlMs,
      authorize_url: null,
    };
    return `${this.server.id}.${nonce}`;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.current.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.current.client = client;
    await this.persist();
  }

  tokens(): OAuthTokens | undefined {
    return this.current.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.current.tokens = tokens;
    this.current.tokens_at = Date.now();
    await this.persist();
  }

  /** Chorus cannot send a browser anywhere from here: the URL is kept for the user to open. */
  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.current.pending) this.current.pending.authorize_url = url.href;
    await this.persist();
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    this.current.verifier = verifier;
    await this.persist();
  }

  codeVerifier(): string {
    if (!this.current.verifier) throw new Error('No sign-in is under way for this MCP server.');
    return this.current.verifier;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'all') this.current = {};
    if (scope === 'client') delete this.current.client;
    if (scope === 'tokens') {
      delete this.current.tokens;
      delete this.current.tokens_at;
    }
    if (scope === 'verifier') delete this.current.verifier;
    if (scope === 'discovery') delete this.current.discovery;
    await this.persist();
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    this.current.discovery = discovery;
    await this.persist();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.current.discovery;
  }

  /** The access token, to keep it out of any message. */
  accessToken(): string | null {
    return this.current.tokens?.access_token ?? null;
  }
}
