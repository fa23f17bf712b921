/**
 * The iframe's calls to the public widget API (/widget/v1/{public_id}/…): same origin, never with
 * cookies (`credentials: 'omit'`), a visitor session as the bearer.
 */

/** What the visitor reads when a call fails; the server's own message is shown when it sends one. */
export const fallbackMessages = {
  network: 'The chat could not be reached. Check your connection, then try again.',
  server: 'Something went wrong on our side. Please try again in a moment.',
  rateLimited:
    'You are sending messages faster than this chat allows. Wait a little, then try again.',
  failed: 'That did not work. Please try again.',
  cutOff: 'The reply was cut off. Please try again.',
  /** widgetUnavailableMessage of the contract (a test keeps the two equal). */
  unavailable: 'This assistant is unavailable right now. Please try again later.',
  badLink: 'This chat link is not valid.',
};

export class WidgetError extends Error {
  constructor(
    /** 0 when no answer came. */
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const fallbackFor = (status: number) =>
  status === 404
    ? fallbackMessages.unavailable
    : status === 429
      ? fallbackMessages.rateLimited
      : status >= 500
        ? fallbackMessages.server
        : fallbackMessages.failed;

/**
 * The error of a failed answer. The server's body is `{ error: message, code }`; an
 * `{ error: { code, message } }` body is read too. Anything else (a proxy's HTML page) gets a
 * message of our own for its status.
 */
export const errorFromBody = (status: number, body: unknown): WidgetError => {
  let message: unknown;
  let code: unknown;
  if (typeof body === 'object' && body !== null) {
    const { error, code: topCode } = body as { error?: unknown; code?: unknown };
    if (typeof error === 'string') {
      message = error;
      code = topCode;
    } else if (typeof error === 'object' && error !== null) {
      ({ message, code } = error as { message?: unknown; code?: unknown });
    }
  }
  return new WidgetError(
    status,
    typeof code === 'string' ? code : `http:${status}`,
    typeof message === 'string' && message.trim() !== '' ? message : fallbackFor(status),
  );
};

export const errorFromResponse = async (res: Response): Promise<WidgetError> => {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON: the status says enough.
  }
  return errorFromBody(res.status, body);
};

/** Any failure as a WidgetError: a thrown fetch (no answer) is a network failure. */
export const asWidgetError = (error: unknown): WidgetError =>
  error instanceof WidgetError ? error : new WidgetError(0, 'network', fallbackMessages.network);

export const isSessionInvalid = (error: unknown) =>
  error instanceof WidgetError && error.status === 401 && error.code === 'widgets:session_invalid';

export type ApiOptions = {
  publicId: string;
  /** The host page's origin, sent as `X-Chorus-Embedder`; null when unknown. */
  embedder: string | null;
};

/** Calls `/widget/v1/{publicId}{path}`; resolves with the answer when it is a 2xx, else throws. */
export const callWidgetApi = async (
  { publicId, embedder }: ApiOptions,
  path: string,
  {
    session,
    body,
    accept = 'application/json',
  }: { session?: string; body?: unknown; accept?: string },
): Promise<Response> => {
  const headers: Record<string, string> = { Accept: accept };
  if (embedder) headers['X-Chorus-Embedder'] = embedder;
  if (session) headers.Authorization = `Bearer ${session}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/widget/v1/${publicId}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      credentials: 'omit',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw asWidgetError(error);
  }
  if (!res.ok) throw await errorFromResponse(res);
  return res;
};
