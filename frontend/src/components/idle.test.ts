import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';

import App from '../App.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';
import type { FirstRunInfo } from '../lib/api';

// What the window does while nobody uses it: timers only while something is awaited.
describe('idle window', () => {
  afterEach(() => vi.useRealTimers());

  async function firstRunWith(info: Partial<FirstRunInfo>) {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    localStorage.setItem('hearth.firstRunDone', '');
    localStorage.removeItem('hearth.firstRunStep');
    const base = await fakeApi().api.firstRun();
    const firstRun = vi.fn(async (): Promise<FirstRunInfo> => ({ ...base, ...info }) as FirstRunInfo);
    const fake = fakeApi({ firstRun });
    const store = createStatusStore(vi.fn(async () => fakeStatus()));
    render(App, { props: { store, api: fake.api } });
    await store.refresh();
    await tick();
    return firstRun;
  }

  it('the first-run guide polls nothing once Ollama and the model are there', async () => {
    const firstRun = await firstRunWith({});
    await within(await screen.findByTestId('first-run')).findByText('Your workspace');
    const calls = firstRun.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(firstRun.mock.calls.length).toBe(calls);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the first-run guide checks every 3 s while it waits for Ollama', async () => {
    const firstRun = await firstRunWith({ ollamaRunning: false, modelInstalled: false });
    await screen.findByTestId('first-run');
    const calls = firstRun.mock.calls.length;
    await vi.advanceTimersByTimeAsync(9_000);
    expect(firstRun.mock.calls.length).toBe(calls + 3);
  });
});
