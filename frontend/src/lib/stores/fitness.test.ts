import { describe, expect, it } from 'vitest';
import { checkKey, createModelsStore, fitnessBadges } from './models.svelte';
import { fakeApi, fakeCheck } from '../../test-fixtures';

describe('models store: fitness checks', () => {
  it('keys models as the backend does', () => {
    expect(checkKey('qwen3:4b')).toBe('ollama/qwen3:4b');
    expect(checkKey('llama3.2')).toBe('ollama/llama3.2:latest');
    expect(checkKey('hf.co/org/model:Q4_K_M')).toBe('ollama/hf.co/org/model:Q4_K_M');
    expect(checkKey('127.0.0.1:1/library/none')).toBe('ollama/127.0.0.1:1/library/none:latest');
  });

  it('orders badges: the verdict, then the caveats', () => {
    expect(fitnessBadges({ name: 'x' } as never)).toEqual([]);
    const b = fitnessBadges({ fitness: fakeCheck({ verdict: 'text-fallback', caveats: ['repeats-after-result', 'slow'], tokensPerSecond: 3 }) } as never);
    expect(b.map((x) => [x.key, x.tone])).toEqual([
      ['verdict.text-fallback', 'warn'],
      ['caveat.repeats-after-result', 'warn'],
      ['caveat.slow', 'warn'],
    ]);
    expect(b[2].params).toMatchObject({ n: 3 });
  });

  it('runs one check per model at a time and keeps a failure per model', async () => {
    const fake = fakeApi({ listModels: async () => [{ name: 'llama3.2:latest' }, { name: 'qwen3:4b' }] as never });
    const store = createModelsStore(fake.api);
    await store.refresh();
    const first = store.check('llama3.2:latest');
    expect(await store.check('llama3.2:latest')).toBe(false); // already running
    expect(await first).toBe(true);
    expect(fake.mocks.checkModel).toHaveBeenCalledTimes(1);
    expect(store.list[0].fitness?.verdict).toBe('good');
    expect(store.checking).toEqual([]);

    fake.mocks.checkModel.mockRejectedValueOnce('model not found');
    expect(await store.check('qwen3:4b')).toBe(false);
    expect(store.checkErrors).toEqual({ 'qwen3:4b': 'model not found' });
    expect(store.list[1].fitness).toBeUndefined();
  });

  it('follows background checks until unsubscribed', async () => {
    const fake = fakeApi({ listModels: async () => [{ name: 'qwen3:4b' }] as never });
    const store = createModelsStore(fake.api);
    await store.refresh();
    const off = store.follow();
    fake.emitModelChecked(fakeCheck({ model: 'ollama/other:1b' }));
    expect(store.list[0].fitness).toBeUndefined();
    fake.emitModelChecked(fakeCheck({ verdict: 'chat-only' }));
    expect(store.list[0].fitness?.verdict).toBe('chat-only');
    off();
    fake.emitModelChecked(fakeCheck({ verdict: 'good' }));
    expect(store.list[0].fitness?.verdict).toBe('chat-only');
  });
});
