import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** A row to bring into view; a new `key` (a new navigation) brings it again. */
export type FocusRow = { id: string; key: string };

/** How long the row stays lit before it fades. */
const highlightMs = 1500;

/** Frames to wait for the row to be mounted before giving up on moving focus. */
const focusFrames = 30;

export type RowHighlight = { id: string; fading: boolean };

/**
 * Once `focus.id` is among the rows: scrolls it to the middle of the list, lights it up and
 * fades it, and moves keyboard focus to it (after the dialog that asked for it has given focus
 * back, and once the row is mounted). `onJump` runs first, so the list stops following its end.
 */
export const useFocusRow = <Row extends { id: string }>({
  focus,
  rows,
  virtualizer,
  scrollRef,
  onJump,
}: {
  focus: FocusRow | undefined;
  rows: Row[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  onJump: () => void;
}): RowHighlight | null => {
  const [highlight, setHighlight] = useState<RowHighlight | null>(null);
  const doneKey = useRef<string | null>(null);
  const timers = useRef<{ frame?: number; fade?: ReturnType<typeof setTimeout> }>({});
  const index = focus ? rows.findIndex((row) => row.id === focus.id) : -1;

  useLayoutEffect(() => {
    if (!focus || index === -1 || doneKey.current === focus.key) return;
    doneKey.current = focus.key;
    onJump();
    virtualizer.scrollToIndex(index, { align: 'center' });
    setHighlight({ id: focus.id, fading: false });
    const pending = timers.current;
    if (pending.frame !== undefined) cancelAnimationFrame(pending.frame);
    clearTimeout(pending.fade);
    // From the second frame on (a closing dialog gives focus back first), as soon as the
    // virtualizer has mounted the row.
    const selector = `[data-row-id="${CSS.escape(focus.id)}"]`;
    const focusRow = (frame: number) => {
      const row = scrollRef.current?.querySelector<HTMLElement>(selector);
      if (frame >= 2 && row) row.focus({ preventScroll: true });
      else if (frame < focusFrames)
        pending.frame = requestAnimationFrame(() => focusRow(frame + 1));
    };
    focusRow(0);
    pending.fade = setTimeout(
      () => setHighlight((shown) => (shown?.id === focus.id ? { ...shown, fading: true } : shown)),
      highlightMs,
    );
  }, [focus, index, virtualizer, scrollRef, onJump]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      if (pending.frame !== undefined) cancelAnimationFrame(pending.frame);
      clearTimeout(pending.fade);
    };
  }, []);

  return highlight;
};
