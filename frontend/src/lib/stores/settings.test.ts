import { describe, expect, it } from 'vitest';
import { createSettingsStore, fieldFor, validate } from './settings.svelte';
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
    expect(fieldFor('providers.ollama.host', s)).toBe('ollamaHost');
    expect(fieldFor('providers.custom.lm.apiBase', s)).toBe('custom.0.apiBase');
    expect(fieldFor('tools.exec.timeout', s)).toBe('_form');
  });
});

describe('settings store', () => {
  it('saves a valid draft and shows backend problems beside their fields', async () => {
    const fake = fakeApi();
    const store = createSettingsStore(fake.api);
    await store.load();
    expect(store.dirty).toBe(false);
    store.draft!.temperature = 0.8;
    expect(store.dirty).toBe(true);
    expect(await store.save()).toBe(true);
    expect(fake.mocks.saveSettings.mock.calls[0][0]).toMatchObject({ temperature: 0.8 });
    expect(store.dirty).toBe(false);

    fake.mocks.saveSettings.mockResolvedValueOnce({
      saved: false,
      problems: [{ key: 'providers.ollama.host', msg: 'bad host', hint: 'e.g. http://127.0.0.1:11434' }],
    } as never);
    store.draft!.ollamaHost = 'weird:host:1';
    expect(await store.save()).toBe(false);
    expect(store.errors.ollamaHost.text).toBe('bad host (e.g. http://127.0.0.1:11434)');
  });

  it('does not call the backend while a field is invalid', async () => {
    const fake = fakeApi();
    const store = createSettingsStore(fake.api);
    await store.load();
    store.draft!.temperature = -1;
    expect(await store.save()).toBe(false);
    expect(fake.mocks.saveSettings).not.toHaveBeenCalled();
  });
});
