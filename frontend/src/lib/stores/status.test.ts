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

  it('polls until stopped', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => fakeStatus());
    const store = createStatusStore(fetch);
    const stop = store.start(1000);
    await vi.advanceTimersByTimeAsync(3100);
    expect(fetch).toHaveBeenCalledTimes(4);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(4);
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
