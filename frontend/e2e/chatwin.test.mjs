// The chat window's own controls, as a person uses them against the dev build, the real
// Go backend and a scripted fake Ollama: pick a model, download a missing one, regenerate
// a reply and browse its versions, edit a question and send it again. The tests share one
// Hearth and run in order (the fake answers its scripted replies in turn).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
    { name: 'llama3.2:1b', family: 'llama', size: 1321098329, contextLength: 8192, capabilities: ['completion'], parameterSize: '1.2B', quantization: 'Q8_0' },
  ],
  replies: [
    { content: 'The first answer.' },
    { content: 'The second answer.' },
    { content: 'An answer to the edited question.' },
  ],
  pulls: [
    {
      delayMs: 250,
      steps: [
        { status: 'pulling manifest' },
        { status: 'pulling 6a0746a1ec1a', digest: 'sha256:6a07', total: 100000000, completed: 10000000 },
        { status: 'pulling 6a0746a1ec1a', digest: 'sha256:6a07', total: 100000000, completed: 60000000 },
        { status: 'pulling 6a0746a1ec1a', digest: 'sha256:6a07', total: 100000000, completed: 100000000 },
        { status: 'success' },
      ],
    },
  ],
};

let chrome, ollama, app, page, context, errors;
// The configured model is not installed: the picker offers to download it.
const win = hearthWindow(script, { config: { agents: { defaults: { model: 'ollama/gemma3:1b' } } }, skipSetup: 'if-shown' });
before(async () => ({ chrome, ollama, app, page, context, errors } = await win.start()));
after(() => win.stop());

async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message Hearth…' });
  await box.fill(text);
  await box.press('Enter');
}
const answers = () => page.getByTestId('msg-assistant');

/** The meta_update lines of the newest session file: the chat's remembered model. */
function sessionModel() {
  const dir = join(app.home, 'data', 'hearth', 'sessions');
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  const file = files.sort((a, b) => statSync(join(dir, a)).mtimeMs - statSync(join(dir, b)).mtimeMs).at(-1);
  let model = '';
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line);
    if ((rec.type === 'meta' || rec.type === 'meta_update') && rec.model !== undefined) model = rec.model;
  }
  return model;
}

describe('the chat window', () => {
  test('a reply to a missing model offers its Download on the error card, also when the chat is opened again', async () => {
    await send('What is on today?');
    const card = page.getByTestId('error-card');
    await card.getByTestId('download-gemma3:1b').waitFor();
    assert.doesNotMatch(await card.textContent(), /hearth models pull/);
    // Opened again after a reload: the same card, Download included, not a bare message.
    await page.reload();
    await page.getByRole('list', { name: 'Chats' }).getByText('What is on today?').click();
    await page.getByTestId('error-card').getByTestId('download-gemma3:1b').waitFor();
    assert.match(await page.getByTestId('error-card').textContent(), /gemma3:1b is not installed/);
    await page.keyboard.press('Control+n');
    await page.getByRole('heading', { name: 'New chat' }).waitFor();
  });

  test('download a missing model from the model picker, with its progress', async () => {
    const picker = page.getByTestId('model-picker');
    await picker.filter({ hasText: 'gemma3:1b' }).waitFor();
    await picker.click();
    const menu = page.getByTestId('model-menu');
    await menu.getByTestId('model-option-qwen3:4b').waitFor();
    // Badges: capabilities from Ollama.
    assert.match(await menu.getByTestId('model-option-qwen3:4b').textContent(), /tools.*thinking/);
    const missing = menu.getByTestId('model-missing-gemma3:1b');
    assert.match(await missing.textContent(), /not installed/);
    await missing.getByRole('button', { name: 'Download' }).click();
    const bar = menu.getByTestId('download-progress');
    await bar.waitFor();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="download-progress"]')?.getAttribute('aria-valuenow')) > 0);
    await page.screenshot({ path: join(shots, 'chat-model-download.png') });
    // Done: the model is installed and listed like the others.
    await menu.getByTestId('model-option-gemma3:1b').waitFor({ timeout: 15000 });
    assert.equal(await menu.getByTestId('model-missing-gemma3:1b').count(), 0);
  });

  test('pick a model for the chat; the chat remembers it', async () => {
    await page.getByTestId('model-option-qwen3:4b').click();
    await page.getByTestId('model-picker').filter({ hasText: 'qwen3:4b' }).waitFor();
    await send('Tell me something');
    await answers().last().getByText('The first answer.').waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    assert.equal(sessionModel(), 'ollama/qwen3:4b');
    // A new chat starts with the default again; the old one comes back with its own model.
    await page.keyboard.press('Control+n');
    await page.getByTestId('model-picker').filter({ hasText: 'gemma3:1b' }).waitFor();
    await page.getByRole('button', { name: /Tell me something/ }).first().click();
    await page.getByTestId('model-picker').filter({ hasText: 'qwen3:4b' }).waitFor();
  });

  test('regenerate a reply and browse its versions', async () => {
    await answers().last().getByText('The first answer.').waitFor();
    await answers().last().getByTestId('regenerate').click();
    await answers().last().getByText('The second answer.').waitFor();
    // One question, one answer on screen: the first answer is an earlier version.
    assert.equal(await page.getByTestId('msg-user').count(), 1);
    assert.equal(await answers().count(), 1);
    const pos = answers().last().getByTestId('pager-pos');
    await pos.filter({ hasText: '2/2' }).waitFor();
    await answers().last().getByRole('button', { name: 'Earlier version' }).click();
    await answers().last().getByText('The first answer.').waitFor();
    await pos.filter({ hasText: '1/2' }).waitFor();
    await page.screenshot({ path: join(shots, 'chat-versions.png') });
    await answers().last().getByRole('button', { name: 'Later version' }).click();
    await answers().last().getByText('The second answer.').waitFor();
  });

  test('edit a question and send it again', async () => {
    const question = page.getByTestId('msg-user').first();
    await question.hover();
    await question.getByTestId('edit').click();
    const box = question.getByTestId('edit-box');
    await box.fill('Tell me something else');
    await question.getByTestId('edit-send').click();
    await answers().last().getByText('An answer to the edited question.').waitFor();
    assert.equal(await page.getByTestId('msg-user').count(), 1);
    await page.getByTestId('msg-user').first().getByText('Tell me something else').waitFor();
    // The question before the edit, with its answers, is an earlier version.
    const q = page.getByTestId('msg-user').first();
    await q.getByTestId('pager-pos').filter({ hasText: '2/2' }).waitFor();
    await q.getByRole('button', { name: 'Earlier version' }).click();
    await page.getByTestId('msg-user').first().getByText('Tell me something', { exact: true }).waitFor();
    await answers().last().getByText('The second answer.').waitFor();
    await page.getByTestId('msg-user').first().getByRole('button', { name: 'Later version' }).click();
    await answers().last().getByText('An answer to the edited question.').waitFor();
  });

  test('search chat content and memory, and land on the match', async () => {
    // A second chat, so the search has to pick the right one. It shares no word with
    // the first: the fake model echoes what it is sent, and a recalled block of the
    // first chat would put the first chat's answer into this one too.
    await page.keyboard.press('Control+n');
    await send('Plans for the weekend');
    await answers().last().waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    writeFileSync(join(app.workspace, 'memory', 'MEMORY.md'), '# Memory\n\n- The kayak lives in the garage\n');

    await page.keyboard.press('Control+k');
    const input = page.getByTestId('search-input');
    await input.fill('edited question');
    const hit = page.getByTestId('search-hit').filter({ hasText: 'An answer to the edited question.' });
    await hit.waitFor();
    assert.equal(await hit.locator('mark').first().textContent(), 'edited question');
    await page.screenshot({ path: join(shots, 'chat-search.png') });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Tell me something' }).waitFor();
    await page.screenshot({ path: join(shots, 'chat-search-landed.png') });
    await page.locator('[data-testid="msg-assistant"].found').getByText('An answer to the edited question.').waitFor();

    // The memory files are searched too, with the line of the match.
    await page.keyboard.press('Control+k');
    await input.fill('kayak');
    const memHit = page.getByTestId('search-hit').filter({ hasText: 'memory/MEMORY.md, line 3' });
    await memHit.waitFor();
    await memHit.click();
    await page.getByText('The kayak lives in the garage').first().waitFor();
    assert.deepEqual(errors, []);
  });
});
