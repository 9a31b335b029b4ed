// "On time and as announced", what a person sees, against the dev build, the real Go backend
// and a scripted fake Ollama: at 640 × 450 an approval card's command and its buttons are
// both in view when the card appears, and again when the window shrinks to that size while
// the card waits; a failed download wraps inside the model picker, is
// said in the UI language with Ollama's words behind Details, and clears when a later
// download succeeds (screenshots into build/e2e/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const models = [
  { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
];
const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of an earlier answer that fills the chat.`).join("\n\n");
const command = 'find . -name "*.log" -mtime +30 -print && du -sh ./logs ./cache ./build && echo cleaned-up';

const inView = (b, vw, vh) => b && b.y >= 0 && b.x >= 0 && b.y + b.height <= vh && b.x + b.width <= vw;
// Seen, not just inside the window: nothing else (the message box) covers its middle.
const seen = (loc) => loc.evaluate((el) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + Math.min(20, r.width / 2), r.y + r.height / 2);
  return !!top && (el === top || el.contains(top));
});

describe('an approval card at 640 × 450', () => {
  const win = hearthWindow({
    models,
    replies: [
      { content: long },
      { toolCalls: [{ name: 'exec', arguments: { command } }] },
      { content: 'Done.' },
      { content: long },
      { toolCalls: [{ name: 'exec', arguments: { command } }] },
      { content: 'Done again.' },
    ],
  });
  let page;
  before(async () => ({ page } = await win.start()));
  after(() => win.stop());

  async function send(text) {
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    await box.fill(text);
    await box.press('Enter');
  }

  test('shows its command and its buttons when it appears', async () => {
    await page.setViewportSize({ width: 640, height: 450 });
    await send('Tell me a long story');
    await page.getByText('Line 30 of an earlier answer').waitFor({ timeout: 15000 });
    await send('Clean up the old logs');
    const card = page.getByTestId('approval-card');
    await card.waitFor({ timeout: 15000 });
    // Let the view settle (scrolling to the bottom as the reply streams, then to the card).
    await page.waitForTimeout(500);
    const cmd = await card.locator('dl').boundingBox();
    assert.ok(inView(cmd, 640, 450), `the command is out of view: ${JSON.stringify(cmd)}`);
    assert.ok(await seen(card.locator('dl')), 'the command is covered');
    assert.match(await card.locator('dl').textContent(), /find \. -name/);
    for (const name of ['Allow once', 'Deny']) {
      const b = await card.getByRole('button', { name }).boundingBox();
      assert.ok(inView(b, 640, 450), `${name} is out of view: ${JSON.stringify(b)}`);
      assert.ok(await seen(card.getByRole('button', { name })), `${name} is covered`);
    }
    await page.screenshot({ path: join(shots, 'approval-640x450.png') });
    await card.getByRole('button', { name: 'Deny' }).click();
  });

  test('brings its command back into view when the window shrinks while it waits', async () => {
    await page.getByText('Done.').waitFor({ timeout: 15000 });
    await page.setViewportSize({ width: 1000, height: 800 });
    await send('Tell me the long story again');
    await page.getByText('Line 30 of an earlier answer').last().waitFor({ timeout: 15000 });
    await send('Clean up the old logs again');
    const card = page.getByTestId('approval-card');
    await card.waitFor({ timeout: 15000 });
    await page.waitForTimeout(500);
    await page.setViewportSize({ width: 640, height: 450 });
    // Let the view settle (the resize, then the card's own scroll on the next frame).
    await page.waitForTimeout(500);
    const cmd = await card.locator('dl').boundingBox();
    assert.ok(inView(cmd, 640, 450), `after the resize the command is out of view: ${JSON.stringify(cmd)}`);
    assert.ok(await seen(card.locator('dl')), 'after the resize the command is covered');
    const allow = await card.getByRole('button', { name: 'Allow once' }).boundingBox();
    assert.ok(inView(allow, 640, 450), `after the resize Allow once is out of view: ${JSON.stringify(allow)}`);
    await page.screenshot({ path: join(shots, 'approval-resized-640x450.png') });
    await card.getByRole('button', { name: 'Deny' }).click();
  });
});

describe('a failed download in the model picker (zh-CN)', () => {
  const raw = `pull model manifest: file does not exist: registry.ollama.ai/library/gemma3/manifests/1b-${'0123456789abcdef'.repeat(6)}`;
  const zh = hearthWindow(
    { models, replies: [], pulls: [{ error: raw }, { delayMs: 100, steps: [{ status: 'pulling manifest' }, { status: 'success' }] }] },
    { config: { agents: { defaults: { model: 'ollama/gemma3:1b' } }, ui: { language: 'zh-CN' } }, locale: 'zh-CN', skipSetup: 'if-shown' },
  );
  let page;
  before(async () => ({ page } = await zh.start()));
  after(() => zh.stop());

  test('wraps inside the picker, names the model in Chinese, keeps Ollama’s words behind Details, clears on success', async () => {
    await page.setViewportSize({ width: 640, height: 450 });
    await page.getByTestId('model-picker').click();
    const menu = page.getByTestId('model-menu');
    await menu.getByTestId('download-gemma3:1b').click();
    const err = menu.getByTestId('pull-error-gemma3:1b');
    await err.waitFor({ timeout: 15000 });
    await page.screenshot({ path: join(shots, 'pull-error-zh-640.png') });
    assert.match(await err.locator('.text').textContent(), /^下载 gemma3:1b：模型库中没有这个模型$/);
    // Ollama's words are there, folded: not in the visible message.
    assert.equal(await err.locator('details').getAttribute('open'), null);
    assert.equal(await err.locator('summary').textContent(), '详情');
    assert.equal(await err.getByTestId('pull-error-detail').isVisible(), false);
    await err.locator('summary').click();
    assert.match(await err.getByTestId('pull-error-detail').textContent(), /file does not exist/);
    // Inside the menu, the model's name still shown beside it.
    const m = await menu.boundingBox();
    for (const el of [err, err.getByTestId('pull-error-detail')]) {
      const b = await el.boundingBox();
      assert.ok(b && b.x >= m.x && b.x + b.width <= m.x + m.width + 0.5, `runs past the menu: ${JSON.stringify(b)} in ${JSON.stringify(m)}`);
    }
    const name = menu.getByTestId('model-missing-gemma3:1b').locator('.row-name');
    assert.match(await name.innerText(), /^gemma3:1b/);
    const nb = await name.boundingBox();
    assert.ok(nb && nb.width > 60, `the model's name is squeezed: ${JSON.stringify(nb)}`);
    const overflow = await menu.evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(overflow <= 0, `the menu scrolls sideways by ${overflow}px`);
    await page.screenshot({ path: join(shots, 'pull-error-zh-640-details.png') });
    // A second try that succeeds takes the error away.
    await menu.getByTestId('download-gemma3:1b').click();
    await page.getByTestId('pull-error-gemma3:1b').waitFor({ state: 'detached', timeout: 15000 });
  });
});
