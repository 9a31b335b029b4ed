// The model fitness check as a person meets it, against the dev build, the real Go backend
// and the scripted fake Ollama (whose models answer the check as their declared tool style
// would): the first reply of a model gets it checked in the background; a model is checked
// from the Models view; a chat-only model chats without tools and says so once; the view in
// Chinese at the window's minimum width.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const tools = ['completion', 'tools'];
const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: [...tools, 'thinking'], parameterSize: '4.0B' },
    { name: 'printer:3b', family: 'llama', size: 2019393189, contextLength: 4096, capabilities: tools, toolStyle: 'text', probeDelayMs: 300 },
    { name: 'mute:1b', family: 'gemma', size: 815319791, contextLength: 32768, capabilities: tools, toolStyle: 'none' },
    { name: 'nomic-embed-text:latest', family: 'nomic-bert', size: 274302450, contextLength: 2048, capabilities: ['embedding'] },
  ],
  replies: [{ content: 'Hello! How can I help?' }, { content: 'Just chatting, no tools here.' }],
};

let chrome, ollama, app, page, context, errors;
const win = hearthWindow(script);
before(async () => ({ chrome, ollama, app, page, context, errors } = await win.start()));
after(() => win.stop());

const get = async (path) => (await fetch(`${ollama.host}${path}`)).json();
const row = (name) => page.getByTestId(`model-${name}`);
const badges = async (name) => row(name).getByTestId('fitness-badge').allTextContents();
const openModels = () => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Models' }).click();

async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message Hearth…' });
  await box.fill(text);
  await box.press('Enter');
}

describe('model fitness', () => {
  test("a model's first reply gets it checked in the background", async () => {
    await send('hello');
    await page.getByText('Hello! How can I help?').waitFor();
    // After the reply, three short requests of the check, never mixed with the chat's.
    const deadline = Date.now() + 15000;
    while ((await get('/_fake/probes')).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal((await get('/_fake/probes')).length, 3);
    assert.equal((await get('/_fake/chats')).length, 1);
    await openModels();
    await page.locator('[data-testid="model-qwen3:4b"][data-verdict="good"]').waitFor();
    assert.deepEqual(await badges('qwen3:4b'), ['good for tools']);
    assert.match(await row('qwen3:4b').textContent(), /25 tok\/s/);
  });

  test("check a model's fitness from the Models view", async () => {
    assert.deepEqual(await badges('printer:3b'), []);
    await row('printer:3b').getByRole('button', { name: 'Check' }).click();
    await row('printer:3b').getByRole('button', { name: 'Checking…' }).waitFor();
    await page.locator('[data-testid="model-printer:3b"][data-verdict="text-fallback"]').waitFor({ timeout: 15000 });
    assert.deepEqual(await badges('printer:3b'), ['text tool calls', 'small window']);
    assert.match(await row('printer:3b').getByTestId('fitness-badge').first().getAttribute('title'), /Prints its tool calls as text/);
    assert.equal(await row('nomic-embed-text:latest').getByRole('button', { name: 'Check' }).count(), 0);
    await page.screenshot({ path: join(shots, 'models-fitness.png') });
    // Kept: a reload shows the same badges without checking again.
    const probes = (await get('/_fake/probes')).length;
    await page.reload();
    await openModels();
    await page.locator('[data-testid="model-printer:3b"][data-verdict="text-fallback"]').waitFor();
    assert.equal((await get('/_fake/probes')).length, probes);
  });

  test('a chat-only model chats without tools and says so once', async () => {
    await row('mute:1b').getByRole('button', { name: 'Check' }).click();
    await page.locator('[data-testid="model-mute:1b"][data-verdict="chat-only"]').waitFor({ timeout: 15000 });
    assert.match(await row('mute:1b').getByTestId('fitness-badge').getAttribute('title'), /Cannot call tools/);
    await row('mute:1b').getByRole('button', { name: 'Use for chat' }).click();
    // Choosing a chat-only model warns first; the person takes it without tools.
    await page.getByRole('button', { name: 'Use it without tools' }).click();
    await row('mute:1b').getByText('chat model').waitFor();
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('What can you do?');
    await page.getByText('Just chatting, no tools here.').waitFor();
    const notes = page.getByTestId('msg-assistant').last().getByRole('note');
    assert.equal(await notes.count(), 1);
    assert.match(await notes.textContent(), /mute:1b cannot use tools/);
    const chats = await get('/_fake/chats');
    const last = chats[chats.length - 1];
    assert.equal(last.model, 'mute:1b');
    assert.equal(last.tools?.length ?? 0, 0);
  });

  test('the Models view in Chinese at the minimum width', async () => {
    const zh = await openPage(chrome.browser, app.url, { locale: 'zh-CN' });
    try {
      await zh.page.setViewportSize({ width: 640, height: 600 });
      await zh.page.getByRole('navigation', { name: '视图' }).getByRole('button', { name: '模型' }).click();
      const printer = zh.page.getByTestId('model-printer:3b');
      await printer.getByText('文本形式调用工具').waitFor();
      assert.ok(await printer.getByRole('button', { name: '检测' }).isVisible());
      const overflow = await zh.page.evaluate(() => {
        const view = document.querySelector('[aria-labelledby="models-title"]');
        return Math.max(view.scrollWidth - view.clientWidth, view.getBoundingClientRect().right - window.innerWidth);
      });
      assert.ok(overflow <= 0, `the Models view is ${overflow}px too wide`);
      const check = await printer.getByRole('button', { name: '检测' }).boundingBox();
      assert.ok(check.x + check.width <= 640, `the Check button ends at ${check.x + check.width}px`);
      await zh.page.screenshot({ path: join(shots, 'models-fitness-zh-640.png') });
      assert.deepEqual(zh.errors, []);
    } finally {
      await zh.context.close();
    }
  });

  test('no page errors', () => {
    assert.deepEqual(errors, []);
  });
});
