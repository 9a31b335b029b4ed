// "On time and as announced" in the window, against the dev build, the real Go backend
// and a scripted fake Ollama, in local-only mode: a message sent while a card waits
// ("Send instead") denies and stops in one step — no fragment of a new answer, no model
// request before the person's message; /model then a message goes to the new model, and
// /model with a model that is not installed says so; the footer's Local only chip opens
// its setting (screenshots at 640 px in en and zh-CN into build/e2e/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const models = [
  { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  { name: 'small:1b', family: 'llama', size: 807000000, contextLength: 8192, capabilities: ['completion', 'tools'], parameterSize: '1B', quantization: 'Q4_K_M' },
];
const script = {
  models,
  replies: [
    // 1: a call the person answers with a message instead
    { toolCalls: [{ name: 'exec', arguments: { command: 'touch instead.txt' } }], promptEvalCount: 300, evalCount: 9 },
    // 2: the answer to that message (a deny before the stop would have taken it as a fragment)
    { content: 'Listing the files instead.' },
    // 3: the first answer after /model
    { content: 'Hello from the small model.' },
  ],
};

let ollama, app, page;
const win = hearthWindow(script, { config: { localOnly: true } });

async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message Hearth…' });
  await box.fill(text);
  await box.press('Enter');
}
const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();
const card = () => page.getByTestId('approval-card');

// One Hearth at a time: a second one on the same session bus hands over to the first.
describe('on time and as announced', () => {
  before(async () => ({ ollama, app, page } = await win.start()));
  after(() => win.stop());

  test('a message sent while a card waits denies and stops in one step: no fragment, no extra request', async () => {
    await send('Make a file called instead.txt');
    await card().waitFor({ timeout: 15000 });
    await send('No — list the files instead');
    await page.getByText('Listing the files instead.').waitFor({ timeout: 15000 });
    const sent = await chats();
    assert.equal(sent.length, 2, 'a model request came between the denial and the message');
    const tail = sent[1].messages.slice(1);
    const denial = tail.find((m) => m.role === 'tool');
    assert.ok(denial && /denied by the user/.test(denial.content), 'the model reads the denial');
    assert.equal(tail.filter((m) => m.role === 'assistant' && m.content).length, 0, 'a fragment was fed back');
    assert.match(tail[tail.length - 1].content, /list the files instead/);
    assert.equal(await page.getByText('Listing the files instead.').count(), 1);
    const tool = page.getByTestId('tool-card').filter({ hasText: 'exec' });
    assert.equal(await tool.getByTestId('approval-state').textContent(), 'denied');
    assert.ok(!existsSync(join(app.workspace, 'instead.txt')), 'the denied command ran');
  });

  test('/model then a message goes to the new model; a model not installed is named', async () => {
    await send('/model ollama/small:1b');
    await page.getByText('This chat now uses ollama/small:1b.').waitFor({ timeout: 15000 });
    await send('hello again');
    await page.getByText('Hello from the small model.').waitFor({ timeout: 15000 });
    const sent = await chats();
    assert.equal(sent.length, 3);
    assert.equal(sent[2].model, 'small:1b', 'the message went to the old model');
    await send('/model ollama/huge:70b');
    await page.getByText('“ollama/huge:70b” is not installed, so this chat keeps ollama/small:1b.').waitFor({ timeout: 15000 });
    await page.getByText(/Download it in Models, or switch to one that is installed: .*small:1b/).waitFor();
    assert.equal((await chats()).length, 3, 'a command reached the model');
  });

  test('the footer shows local-only mode at 640 px; the chip opens its setting', async () => {
    await page.setViewportSize({ width: 640, height: 450 });
    const chip = page.getByTestId('status-localonly');
    await chip.waitFor();
    assert.equal((await chip.textContent()).trim(), 'Local only');
    const box = await chip.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 640, `the chip is cut off at 640 px: ${JSON.stringify(box)}`);
    assert.ok(await page.getByTestId('status-ollama').isVisible(), 'the Ollama status left the footer');
    await page.screenshot({ path: join(shots, 'localonly-chip-en.png') });
    await chip.click();
    assert.equal(await page.getByTestId('settings-tab-tools').getAttribute('aria-selected'), 'true');
    await page.getByText('Local-only mode: nothing leaves this machine except to Ollama').waitFor();
  });
});

describe('local-only in Chinese', () => {
  const zh = hearthWindow({ models, replies: [] }, { config: { localOnly: true, ui: { language: 'zh-CN' } }, locale: 'zh-CN', skipSetup: 'if-shown' });
  let zpage;
  before(async () => ({ page: zpage } = await zh.start()));
  after(() => zh.stop());

  test('the chip speaks the UI language at 640 px', async () => {
    await zpage.setViewportSize({ width: 640, height: 450 });
    const chip = zpage.getByTestId('status-localonly');
    await chip.waitFor();
    assert.equal((await chip.textContent()).trim(), '仅本地');
    await zpage.screenshot({ path: join(shots, 'localonly-chip-zh.png') });
  });
});
