// Honest approval cards, as a person meets them (dev build, real Go backend, scripted
// fake Ollama): a command the safety rules refuse is refused at once and never offered
// for approval; a destructive command is marked, shows where it runs and has no Enter
// default; a message typed while its card waits denies the call and is sent instead.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const exec = (command) => ({ toolCalls: [{ name: 'exec', arguments: { command } }], promptEvalCount: 300, evalCount: 9 });
const instead = 'OK, I will move old-photos.zip to Archive instead.';
const script = {
  models: [{ name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'], parameterSize: '4.0B', quantization: 'Q4_K_M' }],
  replies: [
    // 1-2: a command the exec guard refuses, then the model's answer to the refusal
    exec('rm -rf ~'),
    { content: 'I cannot delete your home folder.' },
    // 3: a destructive command whose card the person answers with a message
    exec('rm old-photos.zip'),
    // 4 (slow: the stop may cut it) and 5: the answer to the message, whichever is asked
    { chunks: ['OK, I will move', ' old-photos.zip to Archive instead.'], delayMs: 1500 },
    { content: instead },
  ],
};

let chrome, ollama, app, page, context, errors;
const win = hearthWindow(script);
after(() => win.stop());
before(async () => {
  ({ chrome, ollama, app, page, context, errors } = await win.start());
  // Remember any approval card that ever appears, however briefly.
  await page.evaluate(() => {
    window.__cards = 0;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="approval-card"]')) window.__cards++;
    }).observe(document.body, { childList: true, subtree: true });
  });
});

const box = () => page.getByRole('textbox', { name: 'Message Hearth…' });
async function send(text) {
  await box().fill(text);
  await box().press('Enter');
}
const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();
const card = () => page.getByTestId('approval-card');

describe('honest approval cards', () => {
  test('a command the safety rules refuse shows no card: it is refused at once, with its reason', async () => {
    await send('Free some space: delete everything in my home folder');
    await page.getByText('I cannot delete your home folder.').waitFor({ timeout: 15000 });
    assert.equal(await page.evaluate(() => window.__cards), 0, 'an approval card was offered');
    const tool = page.getByTestId('tool-card').filter({ hasText: 'exec' });
    assert.equal(await tool.getByTestId('approval-state').textContent(), 'refused by a safety rule');
    const toolMsg = (await chats())[1].messages.find((m) => m.role === 'tool');
    assert.match(toolMsg.content, /refused by safety rule/);
  });

  test('a destructive command is marked, shows where it runs, and Enter does not allow it', async () => {
    writeFileSync(join(app.workspace, 'old-photos.zip'), 'zip');
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('Delete old-photos.zip');
    await card().waitFor({ timeout: 15000 });
    await card().getByTestId('approval-destructive').waitFor();
    assert.match(await card().getByTestId('approval-dir').textContent(), /Runs in/);
    assert.equal(await card().locator('button.primary').count(), 0, 'a default button');
    await page.screenshot({ path: join(shots, 'approval-destructive.png') });
    await box().press('Enter'); // an empty box: Enter must not answer a destructive call
    await page.waitForTimeout(300);
    assert.equal(await card().count(), 1, 'Enter answered the destructive card');
    assert.ok(existsSync(join(app.workspace, 'old-photos.zip')));
  });

  test('a message typed while the card waits denies the call and is sent instead', async () => {
    await box().fill('No — move it to Archive instead');
    await page.getByTestId('reply-instead').waitFor();
    await box().press('Enter');
    await page.getByText(instead).last().waitFor({ timeout: 20000 });
    await card().waitFor({ state: 'detached' });
    const tool = page.getByTestId('tool-card').filter({ hasText: 'exec' });
    assert.equal(await tool.getByTestId('approval-state').textContent(), 'denied');
    assert.ok(existsSync(join(app.workspace, 'old-photos.zip')), 'the denied rm ran');
    const sent = await chats();
    const last = sent[sent.length - 1].messages;
    assert.equal(last[last.length - 1].role, 'user');
    assert.match(last[last.length - 1].content, /^No — move it to Archive instead/);
    assert.ok(last.some((m) => m.role === 'tool' && /denied by the user/.test(m.content)), 'the model did not read the denial');
    await page.getByRole('button', { name: 'Send' }).waitFor();
    assert.deepEqual(errors, []);
  });
});
