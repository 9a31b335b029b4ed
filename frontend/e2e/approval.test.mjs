// Human in the loop in the window (docs/design/safety-defaults.md), against the dev build, the real
// Go backend (approval gate, audit log) and a scripted fake Ollama that asks for exec:
// the approval card, Deny (the model reads the denial, nothing ran), Allow once with Enter
// (the result shows), a waiting call after a reload with Esc still stopping the run, and
// the Activity view listing every call. The tests share one Hearth and run in order.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const exec = (command) => ({ toolCalls: [{ name: 'exec', arguments: { command } }], promptEvalCount: 300, evalCount: 9 });
const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  ],
  replies: [
    // 1-2: a call that the user denies, then the model's answer
    exec('touch denied.txt'),
    { content: 'Understood, I did not create the file.' },
    // 3-4: a call allowed once (with Enter), then the answer
    exec('echo approved > allowed.txt && echo done-ok'),
    { content: 'The file is written.' },
    // 5: a call that waits across a reload until Esc stops the run
    exec('touch stopped.txt'),
    // 6-7: with mode "all", a slow reply whose call runs while the Activity view is open
    { chunks: ['Checking', ' once', ' more.'], delayMs: 1200, toolCalls: [{ name: 'exec', arguments: { command: 'echo live-run' } }] },
    { content: 'All done.' },
  ],
};

let chrome, ollama, app, page, context, errors;
const win = hearthWindow(script);
before(async () => ({ chrome, ollama, app, page, context, errors } = await win.start()));
after(() => win.stop());

async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message Hearth…' });
  await box.fill(text);
  await box.press('Enter');
}
const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();
const card = () => page.getByTestId('approval-card');

describe('approving tool calls', () => {
  test('the card shows the call and why; Deny tells the model and nothing runs', async () => {
    await send('Make a file called denied.txt');
    await card().waitFor({ timeout: 15000 });
    assert.equal(await card().getAttribute('data-tool'), 'exec');
    await card().getByText('It runs a shell command on this computer.').waitFor();
    assert.match(await card().locator('dl').textContent(), /command\s*touch denied\.txt/i);
    for (const name of ['Allow once', 'Allow for this chat', 'Always allow this tool', 'Deny']) {
      assert.ok(await card().getByRole('button', { name }).isVisible(), name);
    }
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Allow once');
    await page.screenshot({ path: join(shots, 'approval-card.png') });

    await card().getByRole('button', { name: 'Deny' }).click();
    await page.getByText('Understood, I did not create the file.').waitFor({ timeout: 15000 });
    assert.equal(await card().count(), 0, 'the card resolved');
    const tool = page.getByTestId('tool-card').filter({ hasText: 'exec' });
    assert.equal(await tool.getByTestId('approval-state').textContent(), 'denied');
    assert.match(await tool.textContent(), /✕/);

    const sent = await chats();
    assert.equal(sent.length, 2);
    const toolMsg = sent[1].messages.find((m) => m.role === 'tool');
    assert.ok(toolMsg, 'the second request carries the tool result');
    assert.match(toolMsg.content, /denied by the user — do not retry this call/);
    assert.ok(!existsSync(join(app.workspace, 'denied.txt')), 'the denied command ran');
  });

  test('Enter allows once; the tool card shows the result', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('Write approved into allowed.txt');
    await card().waitFor({ timeout: 15000 });
    await card().getByText('echo approved > allowed.txt && echo done-ok').waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('The file is written.').waitFor({ timeout: 15000 });
    assert.equal(await card().count(), 0);
    const tool = page.getByTestId('tool-card').filter({ hasText: 'exec' });
    assert.equal(await tool.getByTestId('approval-state').textContent(), 'allowed once');
    assert.match(await tool.textContent(), /✓/);
    await tool.getByRole('button').first().click();
    assert.match(await tool.locator('pre.result').textContent(), /done-ok/);
    assert.equal(readFileSync(join(app.workspace, 'allowed.txt'), 'utf8').trim(), 'approved');
  });

  test('another chat names a waiting call; it comes back after a reload, and Esc still stops the run', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('Touch stopped.txt');
    await card().waitFor({ timeout: 15000 });
    // Another chat names the one that waits.
    await page.getByRole('button', { name: 'New chat' }).click();
    const banner = page.getByTestId('asking-elsewhere');
    await banner.getByText('“Touch stopped.txt” is waiting for your approval.').waitFor();
    await banner.getByRole('button', { name: 'Show' }).click();
    await card().waitFor();
    assert.equal(await banner.count(), 0);
    await page.reload();
    // The window opens the chat whose call waits and shows its card again.
    await card().waitFor({ timeout: 15000 });
    await card().getByText('touch stopped.txt').waitFor();
    await page.getByText('Touch stopped.txt').first().waitFor();
    await page.keyboard.press('Escape');
    await card().waitFor({ state: 'detached', timeout: 10000 });
    await page.getByRole('button', { name: 'Send' }).waitFor();
    assert.ok(!existsSync(join(app.workspace, 'stopped.txt')), 'the stopped call ran');
    assert.equal((await chats()).length, 5, 'the stopped run asked the model again');
  });
});

describe('Activity', () => {
  test('lists every call newest first with its decision, and opens one to its arguments', async () => {
    await page.getByRole('button', { name: 'Activity' }).click();
    const rows = page.getByTestId('activity-row');
    await rows.nth(2).waitFor({ timeout: 10000 });
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.dataset.approval)), ['cancelled', 'once', 'denied']);
    assert.match(await page.getByTestId('activity-count').textContent(), /3 calls/);
    const denied = page.locator('[data-testid="activity-row"][data-approval="denied"]');
    await denied.getByRole('button').first().click();
    assert.match(await denied.locator('dl').textContent(), /touch denied\.txt/);
    await page.screenshot({ path: join(shots, 'activity.png') });

    await page.getByLabel('Failed only').check();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 2);
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.dataset.approval)), ['cancelled', 'denied']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 3);
    assert.deepEqual(errors, []);
  });

  test('Settings › Approvals saves the mode at once and says where keys are kept', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Tools & approvals' }).click();
    const section = page.getByTestId('approval-settings');
    await section.getByRole('radio', { name: /Ask for risky tools/ }).waitFor();
    assert.ok(await section.getByRole('radio', { name: /Ask for risky tools/ }).isChecked());
    await section.getByRole('radio', { name: /Run everything/ }).check();
    await page.locator('[data-testid="settings-status"][data-state="saved"]').waitFor();
    const cfg = JSON.parse(readFileSync(app.configPath, 'utf8'));
    assert.equal(cfg.tools.approval.mode, 'all');
    // Where keys are kept is said beside the keys, under Models & providers.
    await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Models & providers' }).click();
    await page.getByTestId('key-storage').waitFor();
  });

  test('a run that finishes while the Activity view is open shows up without a refresh', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('Check once more');
    await page.getByTestId('msg-assistant').last().getByText('Checking').waitFor({ timeout: 15000 });
    await page.getByRole('button', { name: 'Activity' }).click();
    const rows = page.getByTestId('activity-row');
    await rows.nth(2).waitFor();
    await page.locator('[data-testid="activity-row"][data-approval="auto"]').waitFor({ timeout: 20000 });
    assert.equal(await rows.first().getAttribute('data-approval'), 'auto');
    assert.match(await rows.first().textContent(), /echo live-run/);
    assert.deepEqual(errors, []);
  });

  test('a key typed into config.json by hand is named in Settings, never moved on its own', async () => {
    const cfg = JSON.parse(readFileSync(app.configPath, 'utf8'));
    cfg.providers = { ...cfg.providers, openai: { apiKey: 'sk-typed-by-hand-e2e' } };
    writeFileSync(app.configPath, JSON.stringify(cfg, null, 2), { mode: 0o600 });
    await page.getByRole('button', { name: 'Activity' }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    const warning = page.locator('[data-testid="plain-key"][data-provider="openai"]');
    await warning.waitFor();
    assert.match(await warning.textContent(), /providers\.openai\.apiKey is stored in plain text in config\.json/);
    assert.match(readFileSync(app.configPath, 'utf8'), /sk-typed-by-hand-e2e/); // still there: the user decides
    const move = warning.getByRole('button', { name: 'Move to keyring' });
    if (await move.count()) {
      // A Secret Service answers here: the key moves and config.json only names it.
      await move.click();
      await page.getByTestId('key-moved').waitFor();
      assert.equal(JSON.parse(readFileSync(app.configPath, 'utf8')).providers.openai.apiKey, '${keyring:openai}');
    } else {
      assert.match(await warning.textContent(), /No system keyring answers; only you can read the file \(0600\)/);
    }
    assert.deepEqual(errors, []);
  });
});
