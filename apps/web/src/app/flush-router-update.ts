import { flushSync } from 'react-dom';

/**
 * Lets a navigation ask to render at once (`navigate(to, { flushSync: true })`, see use-sign-out)
 * instead of in a transition that keeps the old page up while the new one's code loads. What
 * react-router/dom's provider passes; the app keeps the plain one (one copy of the router's
 * contexts in unit tests).
 */
export const flushRouterUpdate = (update: () => unknown): undefined => {
  flushSync(update);
  return undefined;
};
