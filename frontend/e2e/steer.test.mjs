// Typing while Hearth works (docs/chat.md#while-it-works), against the dev build, the real
// Go backend and a scripted fake Ollama: a steer sent while an approval card waits (Ctrl+Enter,
// not Enter's Send instead) and one sent during a tool call (Enter, the default) reach the
// model in its very next request, after the tool result, and show where they were taken; a
// queued message (the mode beside Send) is the next turn; stop and send (Ctrl+Shift+Enter)
// stops the answer and starts its own turn; the waiting list removes, edits and switches a
// message, and its file beside the chat says the same; a Stop holds what waits, sent by hand. Tool calls wait on a gate file the
// test creates once the message waits, so nothing depends on how fast a machine is.
// The tests share one Hearth and run in order (the fake's replies are taken in order).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hearthWindow, waitFor } from './harness.mjs';

const exec = (command) => ({ toolCalls: [{ name: 'exec', arguments: { command } }], promptEvalCount: 300, evalCount: 9 });
// A call that runs until the test creates the gate file in the workspace.
const gated = (name) => exec(`while [ ! -e ${name} ]; do sleep 0.1; done; echo ${name}-open`);
const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  ],
  replies: [
    // 1-2: a steer while the card waits
    exec('echo disk-ok'),
    { content: 'The disk is fine; the largest folder is photos.' },
    // 3-4: a steer during a tool call
    gated('gate1'),
    { content: 'Built with the release profile.' },
    // 5-7: a queued message, then its own turn
    gated('gate2'),
    { content: 'All tests pass.' },
    { content: 'No failures to summarise.' },
    // 8-9: an answer stopped by a message that starts its own turn
    { chunks: ['Once', ' upon', ' a', ' time'], delayMs: 150, hang: true },
    { content: 'Autumn moon rises.' },
    // 10-11: the waiting list edited; the edited steer reaches the model
    gated('gate3'),
    { content: 'Sorted by date.' },
    // 12-13: a queued message held by a Stop, then sent by hand
    gated('gate4'),
    { content: 'Sorted by size.' },
  ],
};

let ollama, app, page, errors;
const win = hearthWindow(script);
before(async () => ({ ollama, app, page, errors } = await win.start()));
after(() => win.stop());

const box = () => page.getByRole('textbox', { name: 'Message Hearth…' });
async function ask(text) {
  await page.getByRole('button', { name: 'New chat' }).click();
  await box().fill(text);
  await box().press('Enter');
}
/** Types text into the composer while the turn runs and sends it with key. */
async function type(text, key) {
  await box().click();
  await box().fill(text);
  await box().press(key);
}
const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();
const requests = async (n) => {
  await waitFor(async () => (await chats()).length >= n, `${n} requests to the model`, 30000);
  return chats();
};
const items = () => page.getByTestId('pending-item');
const last = () => page.getByTestId('msg-assistant').last();
const sessions = () => join(app.home, 'data', 'hearth', 'sessions');
const open = (gate) => writeFileSync(join(app.workspace, gate), '');
/** The messages of the session file that holds text, in the order written. */
function sessionMessages(text) {
  for (const f of readdirSync(sessions()).filter((f) => f.endsWith('.jsonl'))) {
    const lines = readFileSync(join(sessions(), f), 'utf8').split('\n').filter((l) => l.trim());
    const msgs = lines.map((l) => JSON.parse(l)).map((r) => r.message ?? r).filter((m) => m.role);
    if (msgs.some((m) => m.content === text)) return { file: f, msgs };
  }
  return { file: '', msgs: [] };
}
/** Role and words of a request's message, without the runtime context a question carries. */
const said = (m) => [m.role, m.content.split('\n\n[Runtime Context]')[0]];
/** The request's messages from the last tool result on. */
const afterTool = (req) => req.messages.slice(req.messages.findLastIndex((m) => m.role === 'tool'));

describe('sending while Hearth works', () => {
  test('a steer while an approval card waits (Ctrl+Enter) waits for the card, then reaches the model after the result', async () => {
    await ask('Check the disk');
    const card = page.getByTestId('approval-card');
    await card.waitFor({ timeout: 20000 });
    await type('Also name the largest folder', 'Control+Enter');
    await items().first().waitFor();
    assert.equal(await items().first().getByTestId('pending-mode').textContent(), 'Steer');
    assert.ok(await card.isVisible(), 'the steer answered the card (it is not Send instead)');
    assert.equal(await box().inputValue(), '', 'the composer emptied');

    await card.getByRole('button', { name: 'Always allow this tool' }).click();
    await card.getByRole('button', { name: 'Yes, always allow exec' }).click(); // the later calls run unasked
    await last().getByText('The disk is fine; the largest folder is photos.').waitFor({ timeout: 20000 });
    const sent = await requests(2);
    const tail = afterTool(sent[1]);
    assert.match(tail[0].content, /disk-ok/);
    assert.deepEqual(tail.slice(1).map(said), [['user', 'Also name the largest folder']]);
    assert.equal(await items().count(), 0, 'the list emptied when the run took it');
    assert.equal(await last().getByTestId('steer').textContent(), 'You, meanwhile: Also name the largest folder');
  });

  test('a steer during a tool call (Enter) is in the next request and shown where it was taken, also when the chat is opened again', async () => {
    await ask('Build the project');
    await requests(3);
    await last().getByTestId('tool-card').waitFor({ timeout: 20000 });
    assert.equal(await page.getByTestId('send-mode').inputValue(), 'steer', 'Enter steers unless Settings say otherwise');
    await type('Use the release profile', 'Enter');
    await items().first().waitFor();
    assert.equal(await items().first().getByTestId('pending-mode').textContent(), 'Steer');
    assert.equal((await chats()).length, 3, 'nothing was sent while the tool ran');
    open('gate1');

    await last().getByText('Built with the release profile.').waitFor({ timeout: 20000 });
    const sent = await requests(4);
    const tail = afterTool(sent[3]);
    assert.match(tail[0].content, /gate1-open/);
    assert.deepEqual(tail.slice(1).map(said), [['user', 'Use the release profile']]);
    // Where it was taken: after the tool card, before the answer.
    const order = await last().evaluate((el) =>
      [...el.querySelectorAll('[data-testid="tool-card"], [data-testid="steer"], .md, .plain, p')].map((n) => n.dataset.testid ?? n.textContent.trim()).filter(Boolean),
    );
    const tool = order.indexOf('tool-card');
    const steer = order.indexOf('steer');
    const answer = order.findIndex((x) => x.includes('Built with the release profile.'));
    assert.ok(tool >= 0 && tool < steer && steer < answer, `order: ${JSON.stringify(order)}`);

    // The session holds it after the tool result; opened again, it is marked.
    const { msgs } = sessionMessages('Use the release profile');
    const at = msgs.findIndex((m) => m.role === 'user' && m.content === 'Use the release profile');
    assert.equal(msgs[at - 1]?.role, 'tool', `saved after the tool result: ${JSON.stringify(msgs.map((m) => m.role))}`);
    assert.equal(msgs.at(-1).content, 'Built with the release profile.');
    await page.reload();
    await page.getByRole('list', { name: 'Chats' }).getByText('Build the project').click();
    const steered = page.getByTestId('msg-user').filter({ hasText: 'Use the release profile' });
    await steered.getByTestId('steered').waitFor({ timeout: 15000 });
    assert.equal(await page.getByTestId('msg-user').filter({ hasText: 'Build the project' }).getByTestId('steered').count(), 0);
  });

  test('a queued message (the mode beside Send) is the next turn once this one ends', async () => {
    await ask('Run the tests');
    await requests(5);
    await last().getByTestId('tool-card').waitFor({ timeout: 20000 });
    await box().click();
    await box().fill('Then summarise the failures');
    await page.getByTestId('send-mode').selectOption('queue');
    await page.getByTestId('send-during').click();
    await items().first().waitFor();
    assert.equal(await items().first().getByTestId('pending-mode').textContent(), 'Queue');
    assert.equal(await page.getByTestId('send-mode').inputValue(), 'steer', 'the choice was for that message only');
    open('gate2');

    await page.getByText('No failures to summarise.').waitFor({ timeout: 30000 });
    const sent = await requests(7);
    assert.ok(!JSON.stringify(sent[5].messages).includes('Then summarise the failures'), 'the queued message went into the running turn');
    assert.deepEqual(said(sent[6].messages.at(-1)), ['user', 'Then summarise the failures']);
    // Shown as a question of its own, after the answer it waited for.
    const users = await page.getByTestId('msg-user').allTextContents();
    assert.match(users.at(-1), /Then summarise the failures/);
    const answers = await page.getByTestId('msg-assistant').allTextContents();
    assert.match(answers.at(-2), /All tests pass\./);
    assert.match(answers.at(-1), /No failures to summarise\./);
    assert.equal(await items().count(), 0);
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  });

  test('stop and send (Ctrl+Shift+Enter) stops the answer, keeps what it wrote and starts its own turn', async () => {
    await ask('Write a long story');
    await last().getByText('Once upon', { exact: false }).waitFor({ timeout: 20000 });
    await type('Make it a haiku instead', 'Control+Shift+Enter');
    await page.getByText('Autumn moon rises.').waitFor({ timeout: 30000 });
    const sent = await requests(9);
    assert.deepEqual(said(sent[8].messages.at(-1)), ['user', 'Make it a haiku instead']);
    const stopped = page.getByTestId('msg-assistant').nth(-2);
    assert.equal(await stopped.getAttribute('data-status'), 'cancelled', 'it ended as Stop ends it');
    assert.match(await stopped.textContent(), /Once upon/);
    assert.match((await page.getByTestId('msg-user').allTextContents()).at(-1), /Make it a haiku instead/);
    assert.equal(await items().count(), 0, 'stop and send never waits');
  });

  test('the waiting list removes, edits and switches; the file beside the chat follows; the edited steer reaches the model', async () => {
    await ask('Sort the photos');
    await requests(10);
    await last().getByTestId('tool-card').waitFor({ timeout: 20000 });
    // A low window: the chat scrolls to keep each message that starts to wait in view.
    await page.setViewportSize({ width: 1100, height: 340 });
    await type('By camera', 'Alt+Enter');
    await items().nth(0).waitFor();
    await type('By colour', 'Alt+Enter');
    await items().nth(1).waitFor();
    assert.deepEqual(await page.getByTestId('pending-mode').allTextContents(), ['Queue', 'Queue']);
    const inView = () =>
      page.evaluate(() => {
        const item = [...document.querySelectorAll('[data-testid="pending-item"]')].at(-1).getBoundingClientRect();
        return item.bottom <= document.querySelector('form.composer').getBoundingClientRect().top + 1 && item.top >= 0;
      });
    await waitFor(inView, 'the last waiting message in view', 10000);
    await page.setViewportSize({ width: 1100, height: 720 });

    await items().filter({ hasText: 'By colour' }).getByTestId('pending-remove').click();
    await waitFor(async () => (await items().count()) === 1, 'the removed message gone');
    const first = items().first();
    await first.getByTestId('pending-edit').click();
    await first.getByRole('textbox', { name: 'Edit' }).fill('By date');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByText('By date').waitFor();
    await first.getByTestId('pending-switch').click();
    await waitFor(async () => (await first.getByTestId('pending-mode').textContent()) === 'Steer', 'switched to steer');

    const { file } = sessionMessages('Sort the photos');
    const pendingFile = join(sessions(), file.replace(/\.jsonl$/, '.pending.json'));
    const saved = JSON.parse(readFileSync(pendingFile, 'utf8')).messages;
    assert.deepEqual(saved.map((p) => [p.mode, p.text]), [['steer', 'By date']]);

    open('gate3');
    await last().getByText('Sorted by date.').waitFor({ timeout: 20000 });
    const sent = await requests(11);
    const tail = afterTool(sent[10]);
    assert.deepEqual(tail.slice(1).map(said), [['user', 'By date']]);
    assert.ok(!/By camera|By colour/.test(JSON.stringify(sent[10].messages)), 'a removed or replaced text reached the model');
    await waitFor(async () => (await items().count()) === 0, 'the list emptied');
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  });

  test('a Stop holds what waits: shown as not sent, sent by hand as the next turn', async () => {
    await ask('Sort the music');
    await requests(12);
    await last().getByTestId('tool-card').waitFor({ timeout: 20000 });
    await type('By size', 'Alt+Enter');
    await items().first().waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitFor(async () => (await items().first().getByTestId('pending-mode').textContent()) === 'Not sent', 'the message held');
    assert.equal(await last().getAttribute('data-status'), 'cancelled');
    assert.equal(await items().first().getByTestId('pending-switch').count(), 0, 'a held message is sent or removed, not switched');
    assert.equal((await chats()).length, 12, 'a held message started nothing by itself');

    await items().first().getByTestId('pending-send').click();
    await last().getByText('Sorted by size.').waitFor({ timeout: 20000 });
    const sent = await requests(13);
    assert.deepEqual(said(sent[12].messages.at(-1)), ['user', 'By size']);
    assert.match((await page.getByTestId('msg-user').allTextContents()).at(-1), /By size/);
    await waitFor(async () => (await items().count()) === 0, 'the list emptied');
    assert.deepEqual(errors, []);
  });
});
