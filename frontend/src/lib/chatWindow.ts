// Which items of a long chat the view renders: a chat opens with its latest items, about
// two screens of them, and earlier ones are added a screen at a time as the view nears the
// top, so opening a chat costs the same however long it is. Heights are guessed from the
// text (in lines) before anything is rendered; the view tops up by measuring afterwards.
import type { Item } from './stores/turn';

/** Lines of a screen, roughly (a 800 px window at 22 px a line). */
export const SCREEN_LINES = 40;
/** Items rendered at least when a chat opens, and at most in one go. */
export const MIN_ITEMS = 4;
export const MAX_ITEMS = 40;

const CHARS_PER_LINE = 90;

function textLines(s: string): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n + Math.floor(s.length / CHARS_PER_LINE);
}

/** A guess at how many lines item takes on screen. */
export function itemLines(item: Item): number {
  if (item.kind === 'user') return 2 + textLines(item.text) + (item.images.length ? 6 : 0);
  let n = 2; // the foot and the gap below
  for (const p of item.parts) {
    if (p.kind === 'text' || p.kind === 'reply') n += textLines(p.text);
    else if (p.kind === 'tool') n += p.result ? 3 : 2;
    else n += 2;
  }
  return n;
}

/**
 * The index of the earliest item to render so that items[index, end) fill about `lines`
 * lines, counting back from end: at least MIN_ITEMS more (when there are), at most MAX_ITEMS.
 */
export function earlierIndex(items: readonly Item[], end: number, lines: number): number {
  let i = end;
  let sum = 0;
  while (i > 0 && end - i < MAX_ITEMS && (sum < lines || end - i < MIN_ITEMS)) {
    i--;
    sum += itemLines(items[i]);
  }
  return i;
}

/** The first item rendered when a chat opens: about two screens from its end. */
export function firstIndex(items: readonly Item[]): number {
  return earlierIndex(items, items.length, 2 * SCREEN_LINES);
}

export interface Viewport {
  scrollTop: number;
  clientHeight: number;
}

/** Whether to add earlier items: some are not rendered and less than a screen is above the view. */
export function wantsEarlier(v: Viewport, start: number): boolean {
  return start > 0 && v.scrollTop < v.clientHeight;
}

/** Blocks of a long answer opened from history rendered at first, and added at a time. */
export const LAZY_BLOCKS = 30;

/**
 * Keeps what the reader sees still while content is added above anchor (a rendered element):
 * note where anchor is, make the change, then scroll by how far anchor moved. With
 * onlyAbove, content added below the top of the view (which moves only what is under it)
 * scrolls nothing.
 */
export async function keepAnchor(
  scroller: { scrollTop: number; getBoundingClientRect?(): { top: number } },
  anchor: { getBoundingClientRect(): { top: number }; isConnected: boolean } | null,
  change: () => Promise<void>,
  onlyAbove = false,
): Promise<void> {
  const before = anchor?.getBoundingClientRect().top ?? 0;
  const above = !onlyAbove || before <= (scroller.getBoundingClientRect?.().top ?? -Infinity) + 1;
  await change();
  if (anchor?.isConnected && above) scroller.scrollTop += anchor.getBoundingClientRect().top - before;
}

/** Runs fn once the next frame has been painted. */
export function afterPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn));
}

/** The element that scrolls el (or the document's). */
export function scrollParent(el: HTMLElement): HTMLElement {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
}
