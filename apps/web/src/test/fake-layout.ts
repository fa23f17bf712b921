import { vi } from 'vitest';

/**
 * happy-dom lays nothing out, so a virtual list sees a 0 px viewport. This gives every
 * scrolling region `viewportPx` of height and every other element `rowPx`.
 */
export const fakeLayout = ({ viewportPx = 600, rowPx = 80 } = {}) => {
  const heightOf = (element: HTMLElement) =>
    element.getAttribute('role') === 'region' || element.classList.contains('overflow-y-auto')
      ? viewportPx
      : rowPx;
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    const height = heightOf(this);
    return {
      x: 0,
      y: 0,
      top: 0,
      left: 0,
      right: 800,
      bottom: height,
      width: 800,
      height,
      toJSON: () => ({}),
    };
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return heightOf(this);
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(viewportPx);
};
