import { describe, expect, it, vi } from 'vitest';
import { createBackgroundStore } from './background.svelte';
import { fakeApi, fakeBackgroundSettings } from '../../test-fixtures';

describe('background settings', () => {
  it('saves each change at once through its own binding', async () => {
    const { api, mocks } = fakeApi();
    const bg = createBackgroundStore(api);
    await bg.load();
    const d = bg.draft!;
    d.heartbeatMinutes = 15;
    expect(await bg.heartbeat()).toBe(true);
    expect(mocks.setHeartbeat).toHaveBeenCalledWith(true, 15);
    expect(bg.savedField).toBe('heartbeat');
    d.missedRuns = 'skip';
    await bg.missedRuns();
    expect(mocks.setMissedRuns).toHaveBeenCalledWith('skip');
    d.closeToTray = false;
    await bg.closeToTray();
    expect(mocks.setCloseToTray).toHaveBeenCalledWith(false);
    d.launchAtLogin = true;
    await bg.launchAtLogin();
    expect(mocks.setLaunchAtLogin).toHaveBeenCalledWith(true);
  });

  it('refuses a wrong interval without calling the backend', async () => {
    const { api, mocks } = fakeApi();
    const bg = createBackgroundStore(api);
    await bg.load();
    bg.draft!.heartbeatMinutes = 0;
    expect(await bg.heartbeat()).toBe(false);
    expect(bg.errors.heartbeat).toEqual({ key: 'background.err.interval' });
    expect(mocks.setHeartbeat).not.toHaveBeenCalled();
  });

  it("goes back to the saved value when the backend refuses, with its reason", async () => {
    const { api } = fakeApi({
      getBackgroundSettings: vi.fn(async () => fakeBackgroundSettings({ launchAtLogin: false })),
      setLaunchAtLogin: vi.fn(async () => Promise.reject('launch at login: ~/.config/autostart is read-only')),
    });
    const bg = createBackgroundStore(api);
    await bg.load();
    bg.draft!.launchAtLogin = true;
    expect(await bg.launchAtLogin()).toBe(false);
    expect(bg.draft!.launchAtLogin).toBe(false);
    expect(bg.errors.launchAtLogin?.text).toMatch(/read-only/);
  });
});
