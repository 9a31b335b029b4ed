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
    if (p.kind === 'text') n += textLines(p.text);
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

/**
 * Keeps what the reader sees still while items are added above: note where a rendered
 * element is, change the items, then put the scroll back by how far that element moved.
 */
export async function keepAnchor(
  scroller: { scrollTop: number },
  anchor: { getBoundingClientRect(): { top: number }; isConnected: boolean } | null,
  change: () => Promise<void>,
): Promise<void> {
  const before = anchor?.getBoundingClientRect().top ?? 0;
  await change();
  if (anchor?.isConnected) scroller.scrollTop += anchor.getBoundingClientRect().top - before;
}
