import { jwtVerify } from 'jose';
import { widgetLimits } from '@chorus/shared/api/widgets';
import { hasInvalidText } from '../http/valid-text.ts';

/** A signed visitor as its token names them. */
export type SignedVisitor = { visitorId: string; name: string | null };

/** Seconds of clock difference forgiven between the host site's server and ours. */
const CLOCK_TOLERANCE_S = 60;

/**
 * Checks a visitor token the host site's server signed with the widget's secret: HS256 only
 * (never `none`, never a public-key algorithm), an `exp` no further ahead than
 * `visitorTokenMaxHours`, `widget` naming this widget, and a `visitor_id`. Null for any token
 * that fails, whatever the reason: the caller answers them all alike.
 */
export const verifyVisitorToken = async (
  token: string,
  secret: string,
  publicId: string,
  now = Date.now(),
): Promise<SignedVisitor | null> => {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(now),
    }));
  } catch {
    return null;
  }
  const { exp, widget, visitor_id: visitorId, name } = payload;
  const latest = now / 1000 + widgetLimits.visitorTokenMaxHours * 3600 + CLOCK_TOLERANCE_S;
  if (typeof exp !== 'number' || exp > latest) return null;
  if (widget !== publicId) return null;
  if (typeof visitorId !== 'string' || visitorId.trim() === '' || visitorId.length > 200) {
    return null;
  }
  if (name !== undefined && name !== null && (typeof name !== 'string' || name.length > 100)) {
    return null;
  }
  // Text that cannot be stored (NUL, a lone surrogate half) is refused like any bad token.
  if (hasInvalidText(visitorId) || hasInvalidText(name)) return null;
  const cleanName = typeof name === 'string' ? name.trim() || null : null;
  return { visitorId, name: cleanName };
};
