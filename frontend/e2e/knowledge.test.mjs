// Settings › Knowledge against the dev build, the real Go backend and a scripted fake Ollama
// (docs/files.md#knowledge-folders): a folder of Markdown notes under the test's home is
// added with the section's button (the native folder dialog cannot be driven, so the page's
// ChooseFolder binding answers with the folder), listed with its files indexed; in mode
// "Every message" a new chat's message carries the folder's passage to the model (the fake's
// request log); "When asked" sticks after a reload and leaves the passage out; and the
// section has no sideways overflow at 640 px in Chinese.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hearthWindow, openPage, repoRoot, waitFor } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const script = {
  models: [{ name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] }],
  replies: [{ content: 'Under the blue pot [notes/house/keys.md line 3]; the boiler, see [notes/house/log.md line 150].' }, { content: 'I would have to search.' }],
};
const notes = {
  'garden.md': '# Garden\n\nThe tomatoes go in the south bed in May.\n',
  'house/keys.md': '# Keys\n\nThe spare key to the shed is under the blue pot by the gate.\n',
  'recipes.md': '# Soup\n\nLeek and potato, with a bay leaf.\n',
  // A long file: its cited line is far below the first screen of the file view.
  'house/log.md': Array.from({ length: 200 }, (_, i) => (i === 149 ? 'Day 150: the boiler was serviced by Ada.' : `Day ${i + 1}: swept the porch.`)).join('\n') + '\n',
};

let ollama, app, page, errors, chrome, folder;
const win = hearthWindow(script);
before(async () => {
  ({ ollama, app, page, errors, chrome } = await win.start());
  folder = join(app.home, 'notes');
  for (const [rel, text] of Object.entries(notes)) {
    mkdirSync(join(folder, rel, '..'), { recursive: true });
    writeFileSync(join(folder, rel), text);
  }
});
after(() => win.stop());

const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();
/** The native dialog cannot be driven: the page's binding answers with the folder instead. */
const stubDialog = (p, path) =>
  p.evaluate((path) => {
    window.go.main.App.ChooseFolder = async () => path;
  }, path);
const openKnowledge = async (p, settings = 'Settings', tab = 'Knowledge') => {
  await p.getByRole('navigation', { name: settings === 'Settings' ? 'Views' : '视图' }).getByRole('button', { name: settings }).click();
  await p.getByRole('tab', { name: tab }).click();
  await p.getByTestId('knowledge-settings').waitFor();
};
const row = () => page.getByTestId('knowledge-folder').filter({ has: page.locator(`[title="${folder}"]`) });

describe('Settings › Knowledge', () => {
  test('a folder added with the button is listed with its files indexed', async () => {
    await openKnowledge(page);
    await page.getByTestId('knowledge-empty').waitFor();
    await stubDialog(page, folder);
    await page.getByTestId('knowledge-add').click();
    await row().waitFor();
    const status = row().getByTestId('knowledge-status');
    await waitFor(async () => /^4 files/.test((await status.innerText()).trim()), 'the folder\'s status: 4 files');
    assert.equal(await row().getByRole('combobox', { name: 'Searched' }).inputValue(), 'always');
    assert.equal(await page.getByTestId('knowledge-empty').count(), 0);
    assert.equal(await row().getByTestId('knowledge-problem').count(), 0);
    await page.screenshot({ path: join(shots, 'knowledge-listed.png') });
  });

  test('in "Every message", a message in a new chat carries the folder\'s passage to the model', async () => {
    await page.getByRole('button', { name: 'New chat' }).first().click(); // leaves Settings for a new chat
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    await box.fill('Where is the spare key to the shed?');
    await box.press('Enter');
    await page.getByText('Under the blue pot').waitFor();
    await waitFor(async () => (await chats()).length >= 1, 'a request to the model');
    const sent = JSON.stringify((await chats()).at(-1).messages);
    assert.match(sent, /under the blue pot by the gate/, 'the folder\'s passage is in the request');
    assert.match(sent, /keys\.md/, 'the passage names its file');
  });

  test('a click on a cited knowledge file shows it read-only, scrolled to the cited line and marked', async () => {
    await page.getByTestId('sources').getByRole('button', { name: 'notes/house/log.md line 150' }).click();
    const view = page.getByTestId('cited-file');
    const marked = view.locator('[data-found="true"]');
    await marked.waitFor();
    assert.equal(await marked.getAttribute('data-line'), '150');
    assert.match(await marked.innerText(), /Day 150: the boiler was serviced by Ada\./);
    // Line 150 of 200: far below the first screen, and now in view.
    const pane = await view.getByTestId('cited-file-text').boundingBox();
    await waitFor(async () => {
      const box = await marked.boundingBox();
      return box.y >= pane.y && box.y + box.height <= pane.y + pane.height;
    }, 'the cited line in view');
    assert.match(await view.innerText(), /200 lines/);
    await page.screenshot({ path: join(shots, 'knowledge-cited-file.png') });
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });

  test('"When asked" sticks after a reload, and a new chat\'s message goes without the passage', async () => {
    await openKnowledge(page);
    await row().getByRole('combobox', { name: 'Searched' }).selectOption('ask');
    await waitFor(async () => (await row().getByRole('combobox', { name: 'Searched' }).inputValue()) === 'ask', 'the mode set');
    await page.reload();
    await openKnowledge(page);
    await row().waitFor();
    assert.equal(await row().getByRole('combobox', { name: 'Searched' }).inputValue(), 'ask');
    // And it holds: a new chat's message no longer carries the passage (the model may search).
    await page.getByRole('button', { name: 'New chat' }).first().click();
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    await box.fill('Where is the spare key to the shed?');
    await box.press('Enter');
    await page.getByText('I would have to search.').waitFor();
    await waitFor(async () => (await chats()).length >= 2, 'a second request to the model');
    assert.doesNotMatch(JSON.stringify((await chats()).at(-1).messages), /under the blue pot by the gate/);
    assert.deepEqual(errors, []);
  });

  test('at 640 px in Chinese nothing reaches past the section\'s edge', async () => {
    const zh = await openPage(chrome.browser, app.url, { locale: 'zh-CN' });
    try {
      await zh.page.setViewportSize({ width: 640, height: 560 });
      await openKnowledge(zh.page, '设置', '知识库');
      await zh.page.getByTestId('knowledge-folder').waitFor();
      const panel = zh.page.locator('#settings-panel');
      const past = await panel.evaluate((el) => {
        const edge = el.getBoundingClientRect().right;
        const out = [...el.querySelectorAll('*')].filter((x) => x.getBoundingClientRect().width > 0 && x.getBoundingClientRect().right > edge + 1);
        return { out: out.map((x) => `${x.tagName} ${(x.textContent ?? '').slice(0, 40)}`), wide: el.scrollWidth > el.clientWidth + 1 };
      });
      assert.deepEqual(past, { out: [], wide: false });
      assert.match(await zh.page.getByTestId('knowledge-status').innerText(), /4 个文件/);
      await zh.page.screenshot({ path: join(shots, 'knowledge-640-zh.png') });
      assert.deepEqual(zh.errors, []);
    } finally {
      await zh.context.close();
    }
  });
});
