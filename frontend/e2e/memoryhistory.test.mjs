// A memory file's history in the window, against the dev build and the real Go backend:
// onboarding's first version, a save in the editor and an edit outside Hearth each show
// up as a change with its author; the diff shows what it did; Restore puts the older
// text back on disk (as a change of its own). The memory inbox holds nothing while off.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hearthWindow, repoRoot, waitFor } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

let app, page, memoryFile;
const win = hearthWindow(undefined, { config: { agents: { defaults: { embeddingModel: '' } } } });
before(async () => {
  ({ app, page } = await win.start());
  memoryFile = join(app.workspace, 'memory', 'MEMORY.md');
});
after(() => win.stop());

const onDisk = () => readFileSync(memoryFile, 'utf8');
const editor = () => page.getByTestId('memory-editor').locator('.cm-content');


describe('memory history', () => {
  test('changes are listed with their authors, and Restore brings the older text back', async () => {
    await page.getByRole('tab', { name: 'Memory' }).click();
    const tree = page.getByRole('navigation', { name: 'Memory files' });
    await tree.getByRole('button', { name: 'MEMORY.md', exact: true }).click();
    await editor().getByText('# Memory').waitFor();
    const original = onDisk();

    // A save in the editor…
    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- Lives in Porto');
    await page.keyboard.press('Control+s');
    await waitFor(() => onDisk().includes('- Lives in Porto'), 'the save reaches the disk');
    // …and an edit outside Hearth, written the way editors do (temp file + rename).
    const tmp = `${memoryFile}.tmp-e2e`;
    writeFileSync(tmp, '# Memory\n\n- Lives in Lisbon\n');
    renameSync(tmp, memoryFile);
    await editor().getByText('- Lives in Lisbon').waitFor();

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const list = page.getByRole('list', { name: 'Changes of this file, newest first' });
    await list.getByText('outside Hearth', { exact: true }).waitFor();
    const rows = list.getByRole('button');
    await waitFor(async () => (await rows.count()) === 3, 'three changes: onboarding, the save, the outside edit');
    assert.match(await rows.nth(0).textContent(), /outside Hearth/);
    assert.match(await rows.nth(1).textContent(), /you.*edited in the memory sidebar/s);
    assert.match(await rows.nth(2).textContent(), /Hearth.*onboarding/s);
    // The newest change is picked; its diff shows what the outside edit did, as added and
    // removed lines (coloured, without the +/- marks of a raw hunk).
    const diff = page.getByLabel('What this change did');
    const added = (text) => diff.locator('span.add').filter({ hasText: text });
    const removed = (text) => diff.locator('span.del').filter({ hasText: text });
    await added('- Lives in Lisbon').waitFor();
    await removed('- Lives in Porto').waitFor();
    // Restore asks first, saying what it would do: the later changes it takes back, and
    // what it would change in the file as it is now (not the version's own change).
    const preview = page.getByLabel('What Restore would change in the file as it is now');
    const restore = async (check = async () => {}) => {
      await page.getByRole('button', { name: 'Restore this version' }).click();
      await page.getByTestId('memory-restore-what').waitFor();
      await check();
      await page.getByTestId('memory-restore-confirm').click();
    };
    await page.screenshot({ path: join(shots, 'memory-history.png') });

    // Restore the editor's version. Its own change only added Porto; restoring it now
    // takes Lisbon out and brings Porto back.
    await rows.nth(1).click();
    await added('- Lives in Porto').waitFor();
    await restore(async () => {
      await preview.locator('span.del').filter({ hasText: '- Lives in Lisbon' }).waitFor();
      await preview.locator('span.add').filter({ hasText: '- Lives in Porto' }).waitFor();
      assert.equal(await diff.count(), 0, "the version's own change is not what Restore shows");
      await page.screenshot({ path: join(shots, 'memory-restore-preview.png') });
    });
    await page.getByTestId('memory-restored').waitFor();
    await waitFor(() => onDisk().includes('- Lives in Porto') && !onDisk().includes('Lisbon'), 'the restored text on disk');
    await waitFor(async () => (await rows.count()) === 4, 'the restore is a change of its own');
    assert.match(await rows.nth(0).textContent(), /you.*restore memory\/MEMORY\.md to/s);

    // Restore the very first version.
    await rows.nth(3).click();
    await restore();
    await waitFor(() => onDisk() === original, 'onboarding text back');

    // Back in the editor, the file shows the restored text.
    await page.getByRole('button', { name: 'Back to editing' }).click();
    await editor().getByText('# Memory').waitFor();
  });

  test('History opens while changes of the file keep arriving', async () => {
    // Each change of the open file reloads the list; a load used to be dropped for the
    // next one, so while changes kept arriving the list stayed at "Opening…". Here the
    // file is saved back to back (each save is announced at once) while History opens:
    // the list must show before the saves stop.
    const tree = page.getByRole('navigation', { name: 'Memory files' });
    await tree.getByRole('button', { name: 'SOUL.md', exact: true }).click();
    await editor().waitFor();
    await page.evaluate(() => {
      const app = window.go.main.MemoryAPI;
      window.__saves = { done: false, n: 0 };
      void (async () => {
        const end = Date.now() + 8000;
        while (Date.now() < end) {
          const f = await app.ReadMemoryFile('SOUL.md');
          await app.SaveMemoryFile('SOUL.md', `${f.content}- save ${++window.__saves.n}\n`, f.hash);
        }
        window.__saves.done = true;
      })();
    });
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const list = page.getByRole('list', { name: 'Changes of this file, newest first' });
    await list.getByRole('button').first().waitFor();
    const state = await page.evaluate(() => window.__saves);
    assert.equal(state.done, false, 'the list showed only after the changes stopped');
    assert.ok(state.n > 0);
    await page.waitForFunction(() => window.__saves.done, null, { timeout: 20000 });
    // When they stop, the newest change is listed and picked.
    const n = await page.evaluate(() => window.__saves.n);
    await page.getByLabel('What this change did').locator('span.add').filter({ hasText: `- save ${n}` }).waitFor();
    await page.getByRole('button', { name: 'Back to editing' }).click();
  });

  test('the memory inbox is off by default and can be turned on', async () => {
    const box = page.getByRole('checkbox', { name: 'Review memory changes' });
    await box.waitFor();
    assert.equal(await box.isChecked(), false);
    await box.check();
    await page.getByLabel('What happens to an unreviewed change').waitFor();
    // The switch is config.json's memory.review.enabled (the Settings view shows it too).
    await waitFor(() => JSON.parse(readFileSync(app.configPath, 'utf8')).memory?.review?.enabled === true, 'saved in config.json');
  });
});
