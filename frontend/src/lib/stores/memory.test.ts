import { describe, expect, it } from 'vitest';
import { createMemoryStore, grouped, statusKey } from './memory.svelte';
import { fakeMemory, hashOf } from './memory-fixture';

const M = 'memory/MEMORY.md';

async function opened(initial: Record<string, string> = { [M]: '# Memory\n' }) {
  const fake = fakeMemory(initial);
  const store = createMemoryStore(fake.api);
  await store.open(M);
  return { fake, store, doc: () => store.doc! };
}

describe('memory store', () => {
  it("says a file that does not exist yet (today's note) is not saved, and Saved once the save created it", async () => {
    const day = 'memory/2026-12-07.md';
    const fake = fakeMemory({ [M]: '# Memory\n' });
    const store = createMemoryStore(fake.api);
    await store.open(day);
    expect(store.doc).toMatchObject({ loaded: true, exists: false, status: 'clean', text: '' });
    expect(statusKey(store.doc!)).toBe('memory.status.new');
    store.edit(day, '- planted the fig\n');
    expect(statusKey(store.doc!)).toBe('memory.status.dirty');
    expect(await store.save()).toBe(true);
    expect(fake.disk.get(day)).toBe('- planted the fig\n');
    expect(statusKey(store.doc!)).toBe('memory.status.clean');
  });

  it('words every state from the catalog, and an unread document as loading', async () => {
    const { doc } = await opened();
    expect(statusKey(doc())).toBe('memory.status.clean');
    expect(statusKey({ ...doc(), loaded: false })).toBe('memory.loading');
    expect(statusKey({ ...doc(), status: 'conflict' })).toBe('memory.status.conflict');
  });

  it('opens a file clean, goes dirty on edit and back to clean when the edit is undone', async () => {
    const { store, doc } = await opened();
    expect(doc()).toMatchObject({ loaded: true, exists: true, status: 'clean', text: '# Memory\n', baseHash: hashOf('# Memory\n') });
    store.edit(M, '# Memory\n- likes tea\n');
    expect(doc().status).toBe('dirty');
    expect(store.unsaved(M)).toBe(true);
    store.edit(M, '# Memory\n');
    expect(doc().status).toBe('clean');
    expect(store.unsaved(M)).toBe(false);
  });

  it('saves with the hash it read, is "saving" meanwhile, then clean with the new hash', async () => {
    const { fake, store, doc } = await opened();
    store.edit(M, '# Memory\n- likes tea\n');
    const saving = store.save();
    expect(doc().status).toBe('saving');
    expect(store.unsaved(M)).toBe(true);
    expect(await saving).toBe(true);
    expect(fake.api.saveMemoryFile).toHaveBeenCalledWith(M, '# Memory\n- likes tea\n', hashOf('# Memory\n'));
    expect(fake.disk.get(M)).toBe('# Memory\n- likes tea\n');
    expect(doc()).toMatchObject({ status: 'clean', baseHash: hashOf('# Memory\n- likes tea\n') });
    // The save's own change event changes nothing.
    await fake.settled();
    expect(fake.api.readMemoryFile).toHaveBeenCalledTimes(2);
    expect(doc()).toMatchObject({ status: 'clean', disk: null, version: 1 });
  });

  it('keeps typing during a save: the document stays dirty with the newer text', async () => {
    const { store, doc } = await opened();
    store.edit(M, 'a');
    const saving = store.save();
    store.edit(M, 'ab');
    await saving;
    expect(doc()).toMatchObject({ status: 'dirty', base: 'a', text: 'ab' });
  });

  it('reloads a clean document when the agent changes the file', async () => {
    const { fake, doc } = await opened();
    fake.write(M, '# Memory\n- sister: 3 May\n');
    await fake.settled();
    expect(doc().status).toBe('reloaded');
    expect(doc()).toMatchObject({ text: '# Memory\n- sister: 3 May\n', baseHash: hashOf('# Memory\n- sister: 3 May\n'), version: 2 });
  });

  it('never clobbers a dirty document: it says the file changed on disk', async () => {
    const { fake, store, doc } = await opened();
    store.edit(M, '# Memory\n- mine\n');
    fake.write(M, '# Memory\n- theirs\n');
    await fake.settled();
    expect(doc().disk).not.toBeNull();
    expect(doc()).toMatchObject({ status: 'dirty', text: '# Memory\n- mine\n', disk: { content: '# Memory\n- theirs\n' } });
    // Compare shows both; discard would take theirs.
    store.compare();
    expect(doc()).toMatchObject({ status: 'conflict', conflict: { mine: '# Memory\n- mine\n', theirs: '# Memory\n- theirs\n' } });
  });

  it('discards the draft for the version on disk', async () => {
    const { fake, store, doc } = await opened();
    store.edit(M, 'mine');
    fake.write(M, 'theirs');
    await fake.settled();
    expect(doc().disk).not.toBeNull();
    store.discard();
    expect(doc()).toMatchObject({ status: 'reloaded', text: 'theirs', disk: null });
  });

  it('goes to conflict when a save is refused, and keep mine saves against the new hash', async () => {
    const { fake, store, doc } = await opened();
    store.edit(M, 'mine');
    fake.disk.set(M, 'theirs'); // changed without an event reaching us yet
    expect(await store.save()).toBe(false);
    expect(doc()).toMatchObject({ status: 'conflict', conflict: { mine: 'mine', theirs: 'theirs', theirsHash: hashOf('theirs') } });
    expect(fake.disk.get(M)).toBe('theirs');
    store.edit(M, 'mine, edited while merging');
    expect(await store.keepMine()).toBe(true);
    expect(fake.api.saveMemoryFile).toHaveBeenLastCalledWith(M, 'mine', hashOf('theirs'));
    expect(fake.disk.get(M)).toBe('mine');
    expect(doc()).toMatchObject({ status: 'clean', conflict: null, text: 'mine' });
  });

  it('merges by editing: Ctrl+S in a conflict saves the merged text against theirs', async () => {
    const { fake, store, doc } = await opened({ [M]: 'a\n' });
    store.edit(M, 'a\nmine\n');
    fake.disk.set(M, 'a\ntheirs\n');
    await store.save();
    store.edit(M, 'a\ntheirs\nmine\n');
    expect(doc().status).toBe('conflict');
    expect(await store.save()).toBe(true);
    expect(fake.disk.get(M)).toBe('a\ntheirs\nmine\n');
    expect(doc()).toMatchObject({ status: 'clean', baseHash: hashOf('a\ntheirs\nmine\n') });
  });

  it('takes theirs without writing', async () => {
    const { fake, store, doc } = await opened();
    store.edit(M, 'mine');
    fake.disk.set(M, 'theirs');
    await store.save();
    const writes = fake.api.saveMemoryFile.mock.calls.length;
    store.takeTheirs();
    expect(doc()).toMatchObject({ status: 'clean', text: 'theirs', baseHash: hashOf('theirs'), conflict: null });
    expect(fake.api.saveMemoryFile.mock.calls.length).toBe(writes);
  });

  it('follows a further change during a conflict, so the merge is saved against the newest file', async () => {
    const { fake, store, doc } = await opened();
    store.edit(M, 'mine');
    fake.disk.set(M, 'theirs 1');
    await store.save();
    fake.write(M, 'theirs 2');
    await fake.settled();
    expect(doc().conflict?.theirs).toBe('theirs 2');
    expect(await store.saveMerged()).toBe(true);
    expect(fake.api.saveMemoryFile).toHaveBeenLastCalledWith(M, 'mine', hashOf('theirs 2'));
  });

  it('keeps a draft per file while another file is open', async () => {
    const { fake, store } = await opened({ [M]: 'm', 'SOUL.md': 's' });
    store.edit(M, 'm draft');
    await store.open('SOUL.md');
    expect(store.doc?.text).toBe('s');
    await store.open(M);
    expect(store.doc).toMatchObject({ text: 'm draft', status: 'dirty' });
    expect(fake.api.readMemoryFile).toHaveBeenCalledWith('SOUL.md');
  });

  it('reports a save error and stays dirty', async () => {
    const { fake, store, doc } = await opened();
    fake.api.saveMemoryFile.mockRejectedValueOnce('save memory/MEMORY.md: permission denied');
    store.edit(M, 'x');
    expect(await store.save()).toBe(false);
    expect(doc()).toMatchObject({ status: 'dirty', error: 'save memory/MEMORY.md: permission denied' });
  });

  it('lists files by group and searches, the latest query winning', async () => {
    const { fake, store } = await opened({ [M]: 'm', 'memory/HISTORY.md': 'h', 'memory/2026-11-23.md': 'd', 'SOUL.md': 's', 'skills/git/SKILL.md': 'g' });
    await store.refresh();
    expect(grouped(store.files).map((g) => [g.id, g.files.map((f) => f.name)])).toEqual([
      ['memory', ['MEMORY.md', 'HISTORY.md']],
      ['daily', ['2026-11-23']],
      ['persona', ['SOUL.md']],
      ['skill', ['skills/git']],
    ]);
    let release!: () => void;
    fake.api.searchMemory.mockImplementationOnce(
      () => new Promise((ok) => (release = () => ok({ hits: [{ source: 'old' }], mode: 'keyword' } as never))),
    );
    fake.api.searchMemory.mockResolvedValueOnce({ hits: [{ source: 'memory/HISTORY.md' }], mode: 'hybrid' } as never);
    const first = store.search('kay');
    await store.search('kayak');
    release();
    await first;
    expect(store.results).toMatchObject({ mode: 'hybrid', hits: [{ source: 'memory/HISTORY.md' }] });
    await store.search('  ');
    expect(store.results).toBeNull();
  });
});

describe('memory store: a search hit', () => {
  it('opens the file with the line to show, for that file only, a new number per request', async () => {
    const fake = fakeMemory({ [M]: '# Memory\n- a\n- b\n' });
    const store = createMemoryStore(fake.api);
    await store.open(M, 3);
    expect(store.lineIn(M)).toEqual({ line: 3, seq: 1 });
    expect(store.lineIn('memory/HISTORY.md')).toBeNull();
    await store.open(M, 3);
    expect(store.lineIn(M)).toEqual({ line: 3, seq: 2 });
    await store.open(M);
    expect(store.lineIn(M)).toBeNull();
  });
});
