// Settings › Channels against the dev build and the real Go backend (scripted fake Ollama):
// the section opens and says the channel's state; a malformed token is refused beside the
// field; a pairing code opens; a person added by id is listed and removed. A Telegram chat
// (telegram:<chat id>) carries its badge in the chat list and continues at the desk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const script = { models: [{ name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] }], replies: [{ content: 'And milk.' }] };
// A chat the Telegram channel wrote, as the session store keeps it (the id's ':' escaped).
const at = (min) => new Date(Date.now() - min * 60_000).toISOString();
const phoneChat = [
  { type: 'meta', v: 1, id: 'telegram:5551234', title: 'Shopping list', created: at(30), updated: at(20), model: 'ollama/qwen3:4b', lastConsolidated: -1, archived: false },
  { type: 'message', at: at(25), runId: 'r1', role: 'user', content: 'What do I need for Saturday?' },
  { type: 'message', at: at(20), runId: 'r1', role: 'assistant', content: 'Eggs, flour and basil.' },
  { type: 'run', at: at(20), runId: 'r1', status: 'ok', final: 'Eggs, flour and basil.', usage: { promptTokens: 300, completionTokens: 9 }, durationMs: 2100, channel: 'telegram' },
]
  .map((l) => JSON.stringify(l))
  .join('\n');

let page, errors;
const win = hearthWindow(script, { files: { 'data/hearth/sessions/telegram%3A5551234.jsonl': phoneChat + '\n' } });
after(() => win.stop());
before(async () => {
  ({ page, errors } = await win.start());
});

describe('Settings › Channels', () => {
  test('opens with the state line and the pairing controls', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Channels' }).click();
    const state = page.getByTestId('channels-state');
    await page.locator('[data-testid="channels-state"][data-state="off"]').waitFor();
    assert.match(await state.innerText(), /^Off/);
    assert.match(await page.getByTestId('settings-channels').innerText(), /@BotFather/);
    await page.getByRole('button', { name: 'Pair a phone' }).waitFor();
    await page.screenshot({ path: join(shots, 'channels-off.png') });
  });

  test('a token that is not a bot token is refused beside the field, with what to do', async () => {
    await page.getByLabel('Bot token').fill('123456:ABC-DEF');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const err = page.getByTestId('channels-error-token');
    await err.waitFor();
    assert.match(await err.innerText(), /does not look like a bot token/);
    assert.equal(await page.getByTestId('settings-status').getAttribute('data-state'), 'failed');
  });

  test('a pairing code opens, and a person added by id is listed, then removed', async () => {
    await page.getByTestId('channels-pair').click();
    const code = page.getByTestId('channels-code');
    await code.waitFor();
    assert.match(await code.innerText(), /^\d{6}$/);
    await page.getByTestId('channels-expiry').waitFor();
    await page.getByTestId('channels-add-id').fill('5551234');
    await page.getByTestId('channels-add').click();
    const peer = page.getByTestId('channels-peer-5551234');
    await peer.waitFor();
    await peer.getByRole('button', { name: 'Remove' }).click();
    await peer.getByRole('button', { name: 'Remove' }).click(); // the confirm
    await peer.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });
});

describe('a Telegram chat', () => {
  test('carries its badge in the chat list, opens, and continues at the desk', async () => {
    const badge = page.getByTestId('session-telegram');
    await badge.waitFor();
    assert.equal(await badge.getAttribute('title'), 'Telegram');
    await badge.click();
    await page.getByText('Eggs, flour and basil.').waitFor();
    await page.getByPlaceholder('Message Hearth…').fill('Anything else?');
    await page.keyboard.press('Enter');
    await page.getByText('And milk.').waitFor({ timeout: 20000 });
    assert.equal(await page.getByTestId('session-telegram').count(), 1); // still the one chat, badge kept
    assert.deepEqual(errors, []);
  });
});
