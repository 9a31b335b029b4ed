// Tab wraps inside a dialog and never leaves it; between its controls the browser moves
// the focus itself.
import { afterEach, describe, expect, it } from 'vitest';
import { tabStops, trapTab } from './focusTrap';

afterEach(() => {
  document.body.innerHTML = '';
});

function rig() {
  document.body.innerHTML = `
    <button id="outside">outside</button>
    <div id="box" tabindex="-1">
      <button id="a">a</button>
      <button id="off" disabled>off</button>
      <div hidden><button id="gone">gone</button></div>
      <a id="nolink">no href</a>
      <input id="b" />
      <span id="minus" tabindex="-1">not a stop</span>
      <button id="c">c</button>
    </div>`;
  const $ = (id: string) => document.getElementById(id)!;
  return { box: $('box'), $ };
}

function tab(box: HTMLElement, shiftKey = false) {
  const e = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, cancelable: true });
  return { trapped: trapTab(e, box), prevented: e.defaultPrevented };
}

describe('trapTab', () => {
  it('lists only the controls Tab reaches', () => {
    const { box } = rig();
    expect(tabStops(box).map((el) => el.id)).toEqual(['a', 'b', 'c']);
  });

  it('wraps at both ends and lets the browser move between', () => {
    const { box, $ } = rig();
    $('c').focus();
    expect(tab(box)).toEqual({ trapped: true, prevented: true });
    expect(document.activeElement).toBe($('a'));
    expect(tab(box, true)).toEqual({ trapped: true, prevented: true });
    expect(document.activeElement).toBe($('c'));
    $('b').focus();
    expect(tab(box)).toEqual({ trapped: false, prevented: false });
    box.focus(); // the dialog itself, as when it opens
    tab(box, true);
    expect(document.activeElement).toBe($('c'));
  });

  it('brings focus found outside back in, and leaves other keys alone', () => {
    const { box, $ } = rig();
    $('outside').focus();
    tab(box);
    expect(document.activeElement).toBe($('a'));
    $('outside').focus();
    tab(box, true);
    expect(document.activeElement).toBe($('c'));
    const e = new KeyboardEvent('keydown', { key: 'Enter', cancelable: true });
    expect(trapTab(e, box)).toBe(false);
  });

  it('keeps the focus on a dialog with no controls', () => {
    document.body.innerHTML = '<button id="o">o</button><div id="box" tabindex="-1">text</div>';
    const box = document.getElementById('box')!;
    box.focus();
    expect(tab(box).prevented).toBe(true);
    expect(document.activeElement).toBe(box);
  });
});
