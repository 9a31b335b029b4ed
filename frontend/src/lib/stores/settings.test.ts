import { describe, expect, it, vi } from 'vitest';
import { createSettingsStore, fieldFor, saveable, validate } from './settings.svelte';
import { fakeApi, fakeSettings } from '../../test-fixtures';

describe('settings validation', () => {
  it('accepts the defaults', () => {
    expect(validate(fakeSettings())).toEqual({});
  });

  it('names each bad field with a message key', () => {
    const s = fakeSettings();
    s.model = 'qwen3:4b';
    s.contextTokens = 100;
    s.temperature = 3;
    s.maxToolIterations = 0;
    s.maxTurnMinutes = 1441;
    s.idleCompactMinutes = -1;
    s.openai.apiBase = 'not a url';
    s.custom = [
      { name: 'groq', apiBase: 'https://api.groq.com/openai/v1', apiKey: '', keySet: false, clearKey: false },
      { name: 'groq', apiBase: 'ftp://x', apiKey: '', keySet: false, clearKey: false },
    ] as never;
    s.workspace = ' ';
    const e = validate(s);
    expect(e.model.key).toBe('settings.err.model');
    expect(e.contextTokens).toEqual({ key: 'settings.err.min', params: { min: 512, max: Infinity } });
    expect(e.temperature.key).toBe('settings.err.range');
    expect(e.maxToolIterations.key).toBe('settings.err.range');
    expect(e.maxTurnMinutes).toEqual({ key: 'settings.err.range', params: { min: 1, max: 1440 } });
    expect(e.idleCompactMinutes).toEqual({ key: 'settings.err.min', params: { min: 0, max: Infinity } });
    expect(e['openai.apiBase'].key).toBe('settings.err.url');
    expect(e['custom.1.name'].key).toBe('settings.err.nameTaken');
    expect(e['custom.1.apiBase'].key).toBe('settings.err.url');
    expect(e['custom.0.name']).toBeUndefined();
    expect(e.workspace.key).toBe('settings.err.workspace');
  });

  it('wants the reply limit below the context size', () => {
    const s = fakeSettings();
    s.maxTokens = 8192;
    expect(validate(s).maxTokens.key).toBe('settings.err.maxTokens');
  });

  it('maps backend config keys onto fields', () => {
    const s = fakeSettings();
    s.custom = [{ name: 'lm', apiBase: '', apiKey: '', keySet: false, clearKey: false }] as never;
    expect(fieldFor('agents.defaults.temperature', s)).toBe('temperature');
    expect(fieldFor('agents.defaults.maxTurnMinutes', s)).toBe('maxTurnMinutes');
    expect(fieldFor('agents.defaults.idleCompactMinutes', s)).toBe('idleCompactMinutes');
    expect(fieldFor('providers.ollama.host', s)).toBe('ollamaHost');
    expect(fieldFor('providers.custom.lm.apiBase', s)).toBe('custom.0.apiBase');
    expect(fieldFor('tools.exec.timeout', s)).toBe('_form');
  });
});

describe('what can be saved', () => {
  it('takes every valid change and leaves the bad one out', () => {
    const saved = fakeSettings();
    const draft = fakeSettings();
    draft.theme = 'dark';
    draft.temperature = 7;
    const c = saveable(draft, saved);
    expect(c.theme).toBe('dark');
    expect(c.temperature).toBe(saved.temperature);
  });

  it('leaves out the change that breaks a rule across fields', () => {
    const saved = fakeSettings(); // context 8192, reply limit 2048
    const draft = fakeSettings();
    draft.contextTokens = 1024; // now below the reply limit
    const c = saveable(draft, saved, 'contextTokens');
    expect(c.contextTokens).toBe(8192);
    draft.maxTokens = 512; // fixed: both go together
    const both = saveable(draft, saved, 'maxTokens');
    expect([both.contextTokens, both.maxTokens]).toEqual([1024, 512]);
  });
});

describe('settings store: saved as you go', () => {
  it('saves a change at once and says so', async () => {
    const fake = fakeApi();
    const onSaved = vi.fn();
    const store = createSettingsStore(fake.api, onSaved, { now: () => 42 });
    await store.load();
    expect(store.state.kind).toBe('idle');
    store.draft!.theme = 'dark';
    expect(await store.commit('theme')).toBe(true);
    expect(fake.mocks.saveSettings).toHaveBeenCalledTimes(1);
    expect(fake.mocks.saveSettings.mock.calls[0][0]).toMatchObject({ theme: 'dark' });
    expect(store.state).toEqual({ kind: 'saved', later: false, at: 42 });
    expect(store.pending).toEqual([]);
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ theme: 'dark' }));
    // Nothing changed: no second write.
    expect(await store.commit('theme')).toBe(false);
    expect(fake.mocks.saveSettings).toHaveBeenCalledTimes(1);
  });

  it('keeps a bad value in its field, saves the rest, and saves it once fixed', async () => {
    const fake = fakeApi();
    const store = createSettingsStore(fake.api);
    await store.load();
    store.draft!.temperature = 7;
    expect(await store.commit('temperature')).toBe(false);
    expect(fake.mocks.saveSettings).not.toHaveBeenCalled();
    expect(store.state.kind).toBe('invalid');
    expect(store.errors.temperature).toEqual({ key: 'settings.err.range', params: { min: 0, max: 2 } });
    expect(store.pending).toEqual(['temperature']);

    store.draft!.language = 'zh-CN';
    await store.commit('language');
    const sent = fake.mocks.saveSettings.mock.calls[0][0];
    expect(sent.language).toBe('zh-CN');
    expect(sent.temperature).toBe(0.3); // the bad value is not sent
    expect(store.draft!.temperature).toBe(7); // and not lost
    expect(store.state.kind).toBe('invalid'); // still waiting for it

    // Leaving Settings and coming back keeps it.
    fake.mocks.getSettings.mockResolvedValueOnce({ ...fakeSettings(), language: 'zh-CN' } as never);
    await store.load();
    expect(store.draft!.temperature).toBe(7);

    store.draft!.temperature = 0.7;
    expect(await store.commit('temperature')).toBe(true);
    expect(fake.mocks.saveSettings.mock.calls.at(-1)![0]).toMatchObject({ temperature: 0.7, language: 'zh-CN' });
    expect(store.state.kind).toBe('saved');
    expect(store.errors).toEqual({});
  });

  it('shows the backend\'s problem with its hint beside the field', async () => {
    const fake = fakeApi();
    const store = createSettingsStore(fake.api);
    await store.load();
    fake.mocks.saveSettings.mockResolvedValueOnce({
      saved: false,
      problems: [{ key: 'providers.ollama.host', msg: 'bad host', hint: 'e.g. http://127.0.0.1:11434' }],
    } as never);
    store.draft!.ollamaHost = 'weird:host:1';
    expect(await store.commit('ollamaHost')).toBe(false);
    expect(store.errors.ollamaHost.text).toBe('bad host — e.g. http://127.0.0.1:11434');
    expect(store.state).toEqual({ kind: 'invalid', fields: ['ollamaHost'] });
    expect(store.draft!.ollamaHost).toBe('weird:host:1');
  });

  it('checks a new provider\'s fields only once they were left', async () => {
    const fake = fakeApi();
    const store = createSettingsStore(fake.api);
    await store.load();
    store.draft!.custom.push({ name: '', apiBase: '', apiKey: '', keySet: false, clearKey: false } as never);
    expect(store.errors).toEqual({});
    store.draft!.custom[0].name = 'lm';
    await store.commit('custom.0.name');
    expect(store.errors['custom.0.name']).toBeUndefined();
    expect(store.errors['custom.0.apiBase']).toBeUndefined();
    expect(fake.mocks.saveSettings).not.toHaveBeenCalled(); // no URL yet
    store.draft!.custom[0].apiBase = 'http://localhost:8080/v1';
    store.draft!.custom[0].apiKey = 'sk-x';
    await store.commit('custom.0.apiBase');
    expect(fake.mocks.saveSettings.mock.calls[0][0].custom[0]).toMatchObject({ name: 'lm', apiKey: 'sk-x' });
    // The key is never kept in the window once stored.
    expect(store.draft!.custom[0]).toMatchObject({ apiKey: '', keySet: true });
  });

  it('says when a save failed, and other parts of Settings report to the same line', async () => {
    const fake = fakeApi();
    const store = createSettingsStore(fake.api, undefined, { now: () => 1 });
    await store.load();
    fake.mocks.saveSettings.mockRejectedValueOnce(new Error('config.json is read-only'));
    store.draft!.theme = 'light';
    expect(await store.commit('theme')).toBe(false);
    expect(store.state).toEqual({ kind: 'failed', text: 'config.json is read-only' });
    store.report({ saved: true });
    expect(store.state).toEqual({ kind: 'saved', later: false, at: 1 });
  });
});
