// Keeps Tab inside a modal dialog: from its last control Tab goes to its first, from its
// first (or the dialog itself) Shift+Tab to its last, and focus found outside comes back
// in. Between controls the browser moves it as usual, so their order is the markup's.

const focusable = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** The controls in box that Tab reaches, in document order. */
export function tabStops(box: HTMLElement): HTMLElement[] {
  return [...box.querySelectorAll<HTMLElement>(focusable)].filter(
    (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && !el.closest('[hidden], [inert]'),
  );
}

/**
 * Handles a keydown for the dialog box: a Tab that would leave it is turned back in
 * (and its default prevented). Returns whether it was.
 */
export function trapTab(e: KeyboardEvent, box: HTMLElement): boolean {
  if (e.key !== 'Tab' || e.ctrlKey || e.metaKey || e.altKey) return false;
  const stops = tabStops(box);
  const at = document.activeElement;
  let to: HTMLElement | undefined;
  if (stops.length === 0) to = box;
  else if (!(at instanceof Node) || !box.contains(at)) to = e.shiftKey ? stops[stops.length - 1] : stops[0];
  else if (e.shiftKey && (at === box || at === stops[0])) to = stops[stops.length - 1];
  else if (!e.shiftKey && at === stops[stops.length - 1]) to = stops[0];
  if (!to) return false;
  e.preventDefault();
  to.focus();
  return true;
}
