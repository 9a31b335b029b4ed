import { describe, expect, it, vi, afterEach } from 'vitest';
import { composerHintKey, createStatusStore } from './status.svelte';
import type { Status } from '../api';
import { fakeStatus } from '../../test-fixtures';

describe('status store', () => {
  afterEach(() => vi.useRealTimers());

  it('loads the status', async () => {
    const store = createStatusStore(async () => fakeStatus());
    expect(store.current).toBeNull();
    await store.refresh();
    expect(store.current?.model).toBe('ollama/qwen3:4b');
    expect(store.error).toBe('');
    expect(store.loading).toBe(false);
  });

  it('keeps the last good status and reports a failed refresh', async () => {
    let fail = false;
    const store = createStatusStore(async () => {
      if (fail) throw new Error('backend gone');
      return fakeStatus();
    });
    await store.refresh();
    fail = true;
    await store.refresh();
    expect(store.error).toBe('backend gone');
    expect(store.current?.ollamaReachable).toBe(true);
  });

  it('coalesces overlapping refreshes into one call', async () => {
    let release!: (s: Status) => void;
    const fetch = vi.fn(() => new Promise<Status>((r) => (release = r)));
    const store = createStatusStore(fetch);
    const a = store.refresh();
    const b = store.refresh();
    expect(store.loading).toBe(true);
    release(fakeStatus());
    await Promise.all([a, b]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  // A stand-in for the window: events are dispatched by hand, visibility is set.
  function fakeWindow(visible = true) {
    const target = new EventTarget();
    const src = {
      shown: visible,
      listeners: 0,
      addEventListener: (type: string, fn: () => void) => {
        src.listeners++;
        target.addEventListener(type, fn);
      },
      removeEventListener: (type: string, fn: () => void) => {
        src.listeners--;
        target.removeEventListener(type, fn);
      },
      visible: () => src.shown,
      fire: (type: string) => target.dispatchEvent(new Event(type)),
    };
    return src;
  }

  it('polls while Ollama does not answer, and stops once it does', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fetch = vi.fn(async () => fakeStatus({ ollamaReachable: ++calls >= 4 }));
    const store = createStatusStore(fetch);
    const stop = store.start(1000, fakeWindow());
    await vi.advanceTimersByTimeAsync(3100);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(store.current?.ollamaReachable).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    stop();
  });

  it('keeps polling while the backend fails, until stopped', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async (): Promise<Status> => {
      throw new Error('backend gone');
    });
    const store = createStatusStore(fetch);
    const win = fakeWindow();
    const stop = store.start(1000, win);
    await vi.advanceTimersByTimeAsync(2100);
    expect(fetch).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(win.listeners).toBe(0);
  });

  it('leaves a window at rest alone; the user coming back or acting refreshes it, once an interval at most', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => fakeStatus());
    const store = createStatusStore(fetch);
    const win = fakeWindow();
    const stop = store.start(1000, win);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    win.fire('pointerdown');
    await vi.advanceTimersByTimeAsync(10);
    expect(fetch).toHaveBeenCalledTimes(2);
    win.fire('keydown');
    win.fire('focus');
    await vi.advanceTimersByTimeAsync(500);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(600);
    win.fire('focus');
    await vi.advanceTimersByTimeAsync(10);
    expect(fetch).toHaveBeenCalledTimes(3);
    stop();
  });

  it('does not poll a hidden window, and picks up again when it is shown', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => fakeStatus({ ollamaReachable: false }));
    const store = createStatusStore(fetch);
    const win = fakeWindow(false);
    const stop = store.start(1000, win);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    win.shown = true;
    win.fire('visibilitychange');
    await vi.advanceTimersByTimeAsync(10);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(3);
    stop();
  });

  it('explains the most useful fix first in the composer hint', () => {
    expect(composerHintKey(fakeStatus({ ollamaReachable: false }))).toBe('chat.disabledOllama');
    expect(composerHintKey(fakeStatus({ modelConfigured: false }))).toBe('chat.disabledModel');
    expect(composerHintKey(fakeStatus({ ollamaReachable: false, modelProvider: 'openai' }))).toBe(
      'chat.ready',
    );
    expect(composerHintKey(fakeStatus())).toBe('chat.ready');
    expect(composerHintKey(null)).toBe('chat.ready');
  });
});
