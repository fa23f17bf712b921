/**
 * Focuses the element with `id` once it is on the page and enabled: after a navigation the page
 * may still be loading its code or data. Gives up after `timeoutMs`; the function it returns stops
 * trying at once.
 */
export const focusWhenReady = (id: string, timeoutMs = 5_000): (() => void) => {
  const deadline = performance.now() + timeoutMs;
  let frame = 0;
  const attempt = () => {
    const element = document.getElementById(id);
    if (element && !element.hasAttribute('disabled')) {
      element.focus();
      return;
    }
    if (performance.now() < deadline) frame = requestAnimationFrame(attempt);
  };
  frame = requestAnimationFrame(attempt);
  return () => cancelAnimationFrame(frame);
};
