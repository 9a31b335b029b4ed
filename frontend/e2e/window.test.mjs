// The window's finish (issue 17 item 5) as a person uses it, against the dev build, the real
// Go backend and a scripted fake Ollama: Settings in sections saved as you go, a bad value,
// slash replies as text, a built-in skill's copy in the editor, the sidebar folded away,
// a memory hit opened at its line, and the footer and every Settings section at the 640 px
// minimum width (English and Chinese).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  ],
  replies: [],
};

let chrome, ollama, app, page, context, errors;
const win = hearthWindow(script);
before(async () => ({ chrome, ollama, app, page, context, errors } = await win.start()));
after(() => win.stop());

const config = () => JSON.parse(readFileSync(app.configPath, 'utf8'));
const status = () => page.getByTestId('settings-status');
async function eventually(fn, what) {
  const deadline = Date.now() + 10000;
  for (;;) {
    try {
      if (await fn()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const section = (name) => page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name });
const view = (name) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name });

describe('settings', () => {
  test('settings come in sections, and a change is saved as it is made', async () => {
    await view('Settings').click();
    const tabs = page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab');
    assert.deepEqual(await tabs.allInnerTexts(), ['General', 'Models & providers', 'Tools & approvals', 'Background', 'Channels', 'Memory', 'Knowledge', 'About']);
    assert.equal(await status().getAttribute('data-state'), 'idle');
    assert.match(await status().innerText(), /saved as you make them/);
    // No Save button: the theme is written as soon as it is picked.
    assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).count(), 0);
    await page.getByLabel('Theme').selectOption('dark');
    await page.locator('[data-testid="settings-status"][data-state="saved"]').waitFor();
    await eventually(() => config().ui?.theme === 'dark', 'ui.theme in config.json');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');

    // A typed value is saved when the field is left.
    await section('Memory').click();
    const window = page.getByLabel(/Messages a chat keeps/);
    await window.fill('60');
    await window.press('Tab');
    await eventually(() => config().agents?.defaults?.memoryWindow === 60, 'memoryWindow in config.json');
    await page.getByRole('checkbox', { name: /Offer possibly relevant memory/ }).uncheck();
    await eventually(() => config().agents?.defaults?.recallBlock?.enabled === false, 'recallBlock.enabled in config.json');

    // About says where things are; the section shown is kept across a reload.
    await section('About').click();
    assert.match(await page.getByTestId('settings-about').innerText(), new RegExp(app.configPath.replace(/[.]/g, '\\.')));
    await page.reload();
    await view('Settings').click();
    assert.equal(await section('About').getAttribute('aria-selected'), 'true');
    await section('General').click();
    await page.getByLabel('Theme').selectOption('system');
    await eventually(() => config().ui?.theme === 'system', 'ui.theme back to system');
  });

  test('a bad value says what to do, is not saved, blocks nothing else and is not lost', async () => {
    await section('Models & providers').click();
    const temp = page.getByLabel('Temperature');
    await temp.fill('7');
    await temp.press('Tab');
    await page.getByText('Use a number from 0 to 2').waitFor();
    await page.locator('[data-testid="settings-status"][data-state="invalid"]').waitFor();
    assert.match(await status().innerText(), /Not saved: fix the value in red/);
    assert.equal(await temp.getAttribute('aria-invalid'), 'true');
    // The section is marked, so the value is found from elsewhere in Settings.
    assert.ok(await section(/Models & providers/).getByLabel('a value here is not saved').isVisible());

    // Another change still saves; the bad one stays out of config.json.
    const steps = page.getByLabel('Tool steps per reply');
    await steps.fill('25');
    await steps.press('Tab');
    await eventually(() => config().agents?.defaults?.maxToolIterations === 25, 'maxToolIterations in config.json');
    assert.notEqual(config().agents?.defaults?.temperature, 7);

    // Leaving Settings and coming back keeps what was typed.
    await view('Models').click();
    await view('Settings').click();
    assert.equal(await page.getByLabel('Temperature').inputValue(), '7');
    await page.screenshot({ path: join(shots, 'settings-bad-value.png') });

    await page.getByLabel('Temperature').fill('0.6');
    await page.getByLabel('Temperature').press('Enter');
    await page.locator('[data-testid="settings-status"][data-state="saved"]').waitFor();
    await eventually(() => config().agents?.defaults?.temperature === 0.6, 'temperature in config.json');
    assert.equal(await page.getByText('Use a number from 0 to 2').count(), 0);
    assert.deepEqual(errors, []);
  });
});

describe('chat details', () => {
  test('a slash command answers as text: placeholders shown and line breaks kept', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    await box.fill('/model');
    await box.press('Enter');
    const reply = page.getByTestId('command-reply').last();
    await reply.waitFor();
    assert.match(await reply.innerText(), /Switch with \/model <provider>\/<model>, e\.g\. \/model ollama\/qwen3:4b\./);
    await box.fill('/help');
    await box.press('Enter');
    await page.getByTestId('command-reply').filter({ hasText: 'this list' }).waitFor();
    const help = await page.getByTestId('command-reply').last().innerText();
    assert.match(help, /^Commands:\n {2}\/new {2,}/);
    assert.ok(help.split('\n').length >= 6, `the list lost its lines: ${JSON.stringify(help)}`);
  });

  test("a built-in skill's Open in editor opens a copy to customise", async () => {
    await view('Skills').click();
    const row = page.getByTestId('skill-summarize');
    await row.getByRole('button', { name: 'Open a copy to customise' }).click();
    const editor = page.getByTestId('memory-editor').locator('.cm-content');
    await editor.getByText('name: summarize').waitFor();
    const file = join(app.workspace, 'skills', 'summarize', 'SKILL.md');
    assert.ok(existsSync(file), 'no copy in the workspace');
    // The copy is the person's to change: an edit is saved into it.
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nAlways answer in three bullet points.');
    await page.keyboard.press('Control+s');
    await eventually(() => readFileSync(file, 'utf8').includes('three bullet points'), 'the edit in the copy');
    await view('Skills').click();
    await page.getByTestId('skill-summarize').getByText('Workspace').waitFor();
    await page.getByTestId('skill-summarize').getByRole('button', { name: 'Open in editor' }).click();
    await page.getByTestId('memory-editor').locator('.cm-content').getByText('three bullet points').waitFor();
  });

  test('Ctrl+B folds the sidebar into a rail, and it stays folded', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    const width = async () => (await sidebar.boundingBox()).width;
    assert.ok((await width()) > 200);
    await page.keyboard.press('Control+b');
    await page.locator('aside[data-collapsed="true"]').waitFor();
    assert.ok((await width()) < 60, `the rail is ${await width()} px wide`);
    // The views are still one click away.
    await sidebar.getByRole('button', { name: 'Models' }).click();
    await page.getByRole('heading', { name: 'Models' }).waitFor();
    await page.reload();
    await page.locator('aside[data-collapsed="true"]').waitFor();
    await page.getByRole('button', { name: 'Show the sidebar' }).click();
    await page.locator('aside[data-collapsed="false"]').waitFor();
    assert.ok((await width()) > 200);
  });

  test('a Ctrl+K memory hit opens the file at its line, scrolled there and marked', async () => {
    const lines = ['# Memory', ''];
    for (let i = 1; i <= 120; i++) lines.push(`- note ${i}: nothing special today`);
    lines[90] = '- The spare key is under the blue flowerpot';
    writeFileSync(join(app.workspace, 'memory', 'MEMORY.md'), lines.join('\n') + '\n');
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.keyboard.press('Control+k');
    await page.getByTestId('search-input').fill('flowerpot');
    const hit = page.getByTestId('search-hit').filter({ hasText: 'MEMORY.md' }).first();
    await hit.waitFor();
    await page.keyboard.press('Enter');
    const marked = page.getByTestId('memory-editor').locator('.cm-line[data-found="true"]');
    await marked.waitFor();
    assert.equal(await marked.innerText(), '- The spare key is under the blue flowerpot');
    // Line 91 of 122: far below the first screen, and now in view.
    const box = await marked.boundingBox();
    const pane = await page.getByTestId('memory-editor').boundingBox();
    assert.ok(box.y >= pane.y && box.y + box.height <= pane.y + pane.height, `line at ${box.y}, pane ${pane.y}–${pane.y + pane.height}`);
    await page.screenshot({ path: join(shots, 'memory-at-line.png') });
  });

  test('at the 640 px minimum width the footer shows everything, nothing clipped', async () => {
    await page.setViewportSize({ width: 640, height: 560 });
    await page.getByRole('button', { name: 'New chat' }).click();
    const footer = page.getByRole('contentinfo', { name: 'Status' });
    await page.getByTestId('status-ollama').filter({ hasText: 'Ollama' }).waitFor();
    const bar = await footer.boundingBox();
    assert.ok(bar.x + bar.width <= 640, `the footer is ${bar.width} px wide`);
    const boxes = [];
    for (const id of ['status-workspace', 'status-model', 'status-ollama']) {
      const el = page.getByTestId(id);
      const b = await el.boundingBox();
      assert.ok(b && b.width > 20, `${id} has no room`);
      assert.ok(b.x >= bar.x && b.x + b.width <= bar.x + bar.width + 0.5, `${id} runs out of the footer: ${JSON.stringify(b)}`);
      boxes.push(b);
    }
    for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i].x >= boxes[i - 1].x + boxes[i - 1].width, 'footer items overlap');
    // The model and Ollama's state are whole; only the workspace path is shortened.
    const model = page.getByTestId('status-model');
    assert.equal(await model.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), true, 'the model name is cut');
    assert.match(await page.getByTestId('status-ollama').innerText(), /^\s*Ollama 0\.\d+\.\d+\s*$/);
    await page.screenshot({ path: join(shots, 'footer-640.png') });
    await page.setViewportSize({ width: 1100, height: 720 });
    assert.deepEqual(errors, []);
  });

  test('at the 640 px minimum width every Settings section fits, a long tool rule included, in English and Chinese', async () => {
    await page.setViewportSize({ width: 640, height: 560 });
    await view('Settings').click();
    await section('Tools & approvals').click();
    // An MCP tool's long name, as such rules are named.
    const long = 'mcp_github_create_pull_request_review_comment';
    await page.getByLabel('Tool name').fill(long);
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('combobox', { name: `Rule for ${long}` }).waitFor();
    const zh = await openPage(chrome.browser, app.url, { locale: 'zh-CN' });
    await zh.page.setViewportSize({ width: 640, height: 560 });
    await zh.page.getByRole('navigation').getByRole('button', { name: '设置' }).click();
    for (const [p, names] of [
      [page, ['General', 'Models & providers', 'Tools & approvals', 'Background', 'Channels', 'Memory', 'About']],
      [zh.page, ['通用', '模型与服务', '工具与审批', '后台', '渠道', '记忆', '关于']],
    ]) {
      const list = p.getByRole('tablist').filter({ has: p.getByTestId('settings-tab-general') });
      const places = async () => JSON.stringify(await list.getByRole('tab').evaluateAll((ts) => ts.map((t) => [t.offsetLeft, t.offsetTop])));
      let before = '';
      for (const name of names) {
        await list.getByRole('tab', { name }).click();
        const panel = p.locator('#settings-panel');
        await panel.locator('fieldset').first().waitFor();
        // Nothing reaches past the panel's right edge, and the panel itself does not scroll sideways.
        const past = await panel.evaluate((el) => {
          const edge = el.getBoundingClientRect().right;
          const out = [...el.querySelectorAll('*')].filter((x) => x.getBoundingClientRect().width > 0 && x.getBoundingClientRect().right > edge + 1);
          return { out: out.map((x) => `${x.tagName} ${(x.textContent ?? '').slice(0, 40)}`), wide: el.scrollWidth > el.clientWidth + 1 };
        });
        assert.deepEqual(past, { out: [], wide: false }, `${name} at 640 px`);
        // Choosing a tab does not move the tabs.
        const now = await places();
        if (before) assert.equal(now, before, `the tabs moved when ${name} was chosen`);
        before = now;
      }
      await list.getByRole('tab', { name: names[2] }).click();
      await p.screenshot({ path: join(shots, `settings-tools-640-${p === page ? 'en' : 'zh'}.png`) });
    }
    await zh.context.close();
    await page.setViewportSize({ width: 1100, height: 720 });
    assert.deepEqual([...errors, ...zh.errors], []);
  });
});
