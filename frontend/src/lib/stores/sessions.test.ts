import { describe, expect, it } from 'vitest';
import { createSessionsStore, matches, sortNewest } from './sessions.svelte';
import { fakeApi } from '../../test-fixtures';
import type { SessionSummary } from '../api';

const s = (id: string, title: string, updated: string, archived = false) =>
  ({ id, title, updated, created: updated, model: '', messages: 2, archived, interrupted: false }) as SessionSummary;

describe('sessions store', () => {
  it('lists newest first, hides archived, and filters by every word of the query', async () => {
    const fake = fakeApi({
      listSessions: async () => [
        s('a', 'Garden plan', '2026-01-01T10:00:00Z'),
        s('b', 'Tax letter draft', '2026-03-01T10:00:00Z'),
        s('c', 'Old', '2026-02-01T10:00:00Z', true),
        s('d', 'Plan for the garden shed', '2026-02-15T10:00:00Z'),
      ],
    });
    const store = createSessionsStore(fake.api);
    await store.refresh();
    expect(store.list.map((x) => x.id)).toEqual(['b', 'd', 'a']);
    store.query = 'garden plan';
    expect(store.filtered.map((x) => x.id)).toEqual(['d', 'a']);
    store.query = 'TAX';
    expect(store.filtered.map((x) => x.id)).toEqual(['b']);
    expect(matches(s('x', 'Hello', ''), '')).toBe(true);
    expect(sortNewest([s('1', '', '2026-01-01'), s('2', '', '2026-05-01')])[0].id).toBe('2');
  });

  it('renames, deletes and exports through the API, keeping errors', async () => {
    const fake = fakeApi();
    const store = createSessionsStore(fake.api);
    expect(await store.rename('a', '  New title ')).toBe(true);
    expect(fake.mocks.renameSession).toHaveBeenCalledWith('a', 'New title');
    fake.mocks.deleteSession.mockRejectedValueOnce('delete session a: busy (hint: stop it first)');
    expect(await store.remove('a')).toBe(false);
    expect(store.error).toContain('stop it first');
    expect(await store.exportTo('a', 'json', 'Export chat')).toBe('/tmp/chat.md');
    expect(fake.mocks.exportSession).toHaveBeenCalledWith('a', '', 'json', 'Export chat');
  });
});
