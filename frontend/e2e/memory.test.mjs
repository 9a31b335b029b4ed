// The memory sidebar as a person uses it, against the dev build and the real Go backend:
// open MEMORY.md, edit and save it, see it on disk; the file changing on disk (as the agent
// writes it) reloads a clean editor, and while the editor is dirty it leads to the
// conflict view, which a merge resolves. Recall search says when it is keyword-only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

let chrome, ollama, app, page, context, errors, memoryFile;
before(async () => {
  chrome = await openBrowser();
  ollama = await startFakeOllama();
  app = await startHearth({ ollamaHost: ollama.host, config: { agents: { defaults: { embeddingModel: '' } } } });
  memoryFile = join(app.workspace, 'memory', 'MEMORY.md');
  ({ page, errors, context } = await openPage(chrome.browser, app.url));
  await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
});
after(async () => {
  await context?.close();
  await chrome?.close();
  await app?.stop();
  await ollama?.stop();
});

/** Writes the file the way the agent's store does: a temp file renamed over it. */
function agentWrites(text) {
  const tmp = `${memoryFile}.tmp-e2e`;
  writeFileSync(tmp, text);
  renameSync(tmp, memoryFile);
}
const onDisk = () => readFileSync(memoryFile, 'utf8');
const state = () => page.getByTestId('memory-state');
const editor = () => page.getByTestId('memory-editor').locator('.cm-content');
const editorText = () => page.evaluate(() => {
  const lines = [...document.querySelectorAll('[data-testid="memory-editor"] .cm-line')];
  return lines.map((l) => l.textContent).join('\n');
});

async function waitText(fn, want, what) {
  const deadline = Date.now() + 10000;
  let got;
  while (Date.now() < deadline) {
    got = await fn();
    if (want instanceof RegExp ? want.test(got) : got === want) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${what}: got ${JSON.stringify(got)}`);
}

describe('memory sidebar', () => {
  test('MEMORY.md opens from the Memory tab, is edited and saved with Ctrl+S, and is on disk', async () => {
    await page.getByRole('tab', { name: 'Memory' }).click();
    const tree = page.getByRole('navigation', { name: 'Memory files' });
    for (const name of ['MEMORY.md', 'HISTORY.md', 'AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'HEARTBEAT.md']) {
      await tree.getByRole('button', { name, exact: true }).waitFor();
    }
    await page.getByRole('tabpanel').getByText(`In ${app.workspace}`).waitFor();
    await tree.getByRole('button', { name: 'MEMORY.md', exact: true }).click();
    await editor().getByText('# Memory').waitFor();
    assert.equal(await state().textContent(), 'Saved');
    assert.ok(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled());

    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- Likes jazz');
    await page.getByRole('img', { name: 'Unsaved changes' }).first().waitFor();
    await waitText(() => state().textContent(), 'Unsaved changes', 'state while dirty');
    await page.keyboard.press('Control+s');
    await waitText(() => state().textContent(), 'Saved', 'state after save');
    assert.match(onDisk(), /^# Memory\n[\s\S]*\n- Likes jazz$/);
    assert.equal(await page.getByRole('img', { name: 'Unsaved changes' }).count(), 0);
  });

  test('a change on disk reloads the clean editor', async () => {
    agentWrites('# Memory\n\n- Likes jazz\n- Sister: birthday 3 May\n');
    await waitText(editorText, '# Memory\n\n- Likes jazz\n- Sister: birthday 3 May\n', 'editor after the write');
    assert.equal(await state().textContent(), 'Updated from disk');
  });

  test('a write on disk while the editor is dirty keeps my text, shows the conflict, and a merge saves both', async () => {
    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- Plays the piano');
    await waitText(() => state().textContent(), 'Unsaved changes', 'state while dirty');

    // The agent remembers something meanwhile, before the first line.
    agentWrites('# Memory\n\n- Lives in Lyon\n- Likes jazz\n- Sister: birthday 3 May\n');
    const banner = page.getByTestId('memory-disk-changed');
    await banner.waitFor();
    assert.match(await editorText(), /- Plays the piano$/, 'the draft is not clobbered');
    assert.doesNotMatch(await editorText(), /Lyon/);

    // Saving now is refused: the conflict view shows both versions side by side.
    await page.keyboard.press('Control+s');
    const conflict = page.getByTestId('memory-conflict');
    await conflict.waitFor();
    assert.equal(await state().textContent(), 'Conflict');
    assert.match(await conflict.getByRole('heading').textContent(), /MEMORY\.md was changed by someone else/);
    const panes = conflict.locator('.cm-mergeViewEditor');
    await panes.nth(0).getByText('- Lives in Lyon').waitFor();
    await panes.nth(1).getByText('- Plays the piano').waitFor();
    assert.equal(await panes.nth(1).getByText('- Lives in Lyon').count(), 0);
    assert.match(onDisk(), /Lyon/);
    assert.doesNotMatch(onDisk(), /piano/, 'the refused save wrote nothing');
    await page.screenshot({ path: join(shots, 'memory-conflict.png') });

    // Merge: copy the agent's line into mine with the arrow, then save against the new hash.
    await conflict.getByTitle('Copy this change from the file on disk into yours').first().click();
    await panes.nth(1).getByText('- Lives in Lyon').waitFor();
    await conflict.getByRole('button', { name: 'Save merged' }).click();
    await conflict.waitFor({ state: 'detached' });
    await waitText(() => state().textContent(), 'Saved', 'state after the merge');
    assert.equal(onDisk(), '# Memory\n\n- Lives in Lyon\n- Likes jazz\n- Sister: birthday 3 May\n- Plays the piano');
    assert.equal(await editorText(), onDisk());
    await page.screenshot({ path: join(shots, 'memory-editor.png') });
  });

  test('recall search shows hits with source, date and snippet, and says it is keyword-only', async () => {
    writeFileSync(join(app.workspace, 'memory', '2026-06-01.md'), 'Bought a kayak at the harbour shop.\n');
    const box = page.getByRole('searchbox', { name: 'Search memory…' });
    await box.fill('kayak harbour');
    await box.press('Enter');
    const hits = page.getByRole('list', { name: 'Memory search results' });
    await hits.waitFor();
    assert.equal((await page.getByTestId('recall-mode').textContent()).trim(), 'Keyword search only');
    const first = hits.getByRole('button').first();
    const text = await first.textContent();
    assert.match(text, /2026-06-01/);
    assert.match(text, /Bought a kayak at the harbour shop/);
    assert.match(text, /keyword/);
    await first.click();
    await editor().getByText('Bought a kayak').waitFor();
    assert.deepEqual(errors, []);
  });
});
