/**
 * Answers index.html asked for before the app's scripts arrived (the data of a chat being opened,
 * for someone signed in on this browser). Each is used once, by the first read of the same URL;
 * a missing or failed one (null) means the app asks the server itself.
 */
type Early = Record<string, Promise<unknown> | undefined>;

export const takeEarlyAnswer = (path: string): Promise<unknown> | undefined => {
  const early = (window as Window & { __chorusEarly?: Early }).__chorusEarly;
  const answer = early?.[path];
  if (early && answer) delete early[path];
  return answer;
};
