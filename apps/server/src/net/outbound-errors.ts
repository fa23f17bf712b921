import type { AddressClass, UrlRefusal } from './address-check.ts';

// The codes follow the API's `area:reason` form so they can join the shared error catalogue
// (packages/shared/src/error-codes.ts) once a route answers with them; until then the words live
// here, in one place.
export type OutboundErrorCode =
  'outbound:refused' | 'outbound:timeout' | 'outbound:too_many_redirects' | 'outbound:failed';

/**
 * A request to a user-supplied URL that did not complete. The message is for people (and for
 * a model reading a tool result): it never holds request headers, which may carry secrets.
 */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'OutboundError';
  }
}

/** Chorus would not send the request: a bad URL, or an address it does not connect to. */
export class OutboundRefusedError extends OutboundError {
  constructor(
    readonly reason: UrlRefusal | Exclude<AddressClass, 'public'>,
    message: string,
  ) {
    super('outbound:refused', message);
    this.name = 'OutboundRefusedError';
  }
}

/** The request, its redirects and its body together took longer than allowed. */
export class OutboundTimeoutError extends OutboundError {
  constructor(readonly timeoutMs: number) {
    super(
      'outbound:timeout',
      `The site did not answer within ${formatSeconds(timeoutMs)}. Try again later, or try another address.`,
    );
    this.name = 'OutboundTimeoutError';
  }
}

const formatSeconds = (ms: number) => {
  const seconds = Math.round(ms / 100) / 10;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
};

/** What a refused address is called in a sentence. */
const addressWords: Record<Exclude<AddressClass, 'public' | 'metadata' | 'invalid'>, string> = {
  loopback: 'private or local',
  private: 'private or local',
  link_local: 'private or local',
  carrier_nat: 'private or local',
  unique_local: 'private or local',
  unspecified: 'private or local',
  broadcast: 'broadcast or multicast',
  multicast: 'broadcast or multicast',
  reserved: 'reserved',
  documentation: 'documentation-only',
  tunnel: 'tunnelled or translated (6to4, Teredo, NAT64)',
};

/** The refusal for an address Chorus does not connect to, naming the address. */
export const addressRefusal = (
  kind: Exclude<AddressClass, 'public'>,
  address: string,
  viaRedirect: boolean,
): OutboundRefusedError => {
  const where = viaRedirect ? `${address}, reached through a redirect` : address;
  if (kind === 'metadata') {
    return new OutboundRefusedError(
      kind,
      `Chorus does not fetch cloud metadata addresses (${where}). Use a public address.`,
    );
  }
  if (kind === 'invalid') {
    return new OutboundRefusedError(
      kind,
      `The host resolved to something that is not an address (${where}). Check the host name.`,
    );
  }
  return new OutboundRefusedError(
    kind,
    `Chorus does not fetch ${addressWords[kind]} addresses (${where}). ` +
      'Use a public address, or ask an admin to allow this host.',
  );
};

export const tooManyRedirects = (limit: number) =>
  new OutboundError(
    'outbound:too_many_redirects',
    `The site redirected more than ${limit} times. Use the final address of the page instead.`,
  );

/** A failure on the way (no such host, connection refused, TLS): named, never a stack. */
export const connectionFailure = (host: string, cause: unknown): OutboundError => {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOTFOUND' || code === 'EAI_AGAIN'
      ? `the host ${host} was not found`
      : code === 'ECONNREFUSED'
        ? `${host} refused the connection`
        : code === 'ECONNRESET' || code === 'EPIPE'
          ? `${host} closed the connection`
          : code?.startsWith('ERR_TLS') || code?.includes('CERT')
            ? `the secure connection to ${host} could not be verified`
            : `the request to ${host} failed`;
  return new OutboundError(
    'outbound:failed',
    `${why.charAt(0).toUpperCase()}${why.slice(1)}. Check the address and try again.`,
    { cause },
  );
};
