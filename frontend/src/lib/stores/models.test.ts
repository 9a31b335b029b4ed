import { describe, expect, it } from 'vitest';
import { badges, createModelsStore, formatSize, percent } from './models.svelte';
import { fakeApi } from '../../test-fixtures';

describe('models store', () => {
  it('follows a pull to the end and lists the new model', async () => {
    const fake = fakeApi();
    const store = createModelsStore(fake.api);
    expect(await store.pull(' tiny:1b ')).toBe(true);
    expect(fake.mocks.pullModel).toHaveBeenCalledWith('tiny:1b');
    const p = store.pulls[0];
    fake.emitPull('p1', { status: 'downloading', total: 200, completed: 50 });
    expect(percent(p)).toBe(25);
    fake.mocks.listModels.mockResolvedValueOnce([{ name: 'tiny:1b', size: 1, capabilities: ['completion'] }] as never);
    fake.emitPull('p1', { status: 'success', done: true });
    expect(percent(p)).toBe(100);
    await vi.waitFor(() => expect(store.list.map((m) => m.name)).toEqual(['tiny:1b']));
  });

  it('shows a cancelled pull as such', async () => {
    const fake = fakeApi();
    const store = createModelsStore(fake.api);
    await store.pull('big:70b');
    await store.cancel('p1');
    expect(fake.mocks.cancelPull).toHaveBeenCalledWith('p1');
    fake.emitPull('p1', { done: true, error: 'cancelled' });
    expect(store.pulls[0]).toMatchObject({ done: true, error: 'cancelled' });
    expect(percent(store.pulls[0])).toBe(0);
  });

  it('formats sizes and orders badges', () => {
    expect(formatSize(2_497_293_918)).toBe('2.5 GB');
    expect(formatSize(274_302_450)).toBe('274 MB');
    expect(badges({ capabilities: ['embedding', 'completion', 'vision', 'tools'] } as never)).toEqual([
      'tools',
      'vision',
      'embedding',
    ]);
  });
});
