// The first run finishes itself: with `ollama` installed but not running, the guide offers
// to start it; once it answers and the model is there, the guide moves on by itself, keeps
// its step across a reload, and Hearth stops the Ollama it started when it quits. At the
// next launch Hearth starts that Ollama again by itself, before the first message, and
// when it is killed mid-session it comes back and the chat says so.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, openBrowser, openPage, repoRoot, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });
const fakeOllamaBin = process.env.HEARTH_FAKEOLLAMA_BIN ?? join(repoRoot, 'build/bin/fakeollama');

const answers = async (url) => {
  try {
    return (await fetch(`${url}/api/version`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
};

let chrome, app, port, bin, home;
before(async () => {
  chrome = await openBrowser();
  // A fake `ollama` on PATH: `ollama serve` runs the scripted fake on OLLAMA_HOST.
  bin = mkdtempSync(join(tmpdir(), 'hearth-ollama-bin-'));
  // It leaves its pid behind so the test can kill it mid-session.
  writeFileSync(
    join(bin, 'ollama'),
    `#!/bin/sh\n[ "$1" = serve ] || exit 2\necho $$ > '${join(bin, 'ollama.pid')}'\nexec '${fakeOllamaBin}' -addr "$OLLAMA_HOST"\n`,
  );
  chmodSync(join(bin, 'ollama'), 0o755);
  port = await freePort();
  app = await startHearth({ ollamaHost: `127.0.0.1:${port}`, env: { PATH: `${bin}:${process.env.PATH}` } });
});
after(async () => {
  await app?.stop();
  await chrome?.close();
  if (bin) rmSync(bin, { recursive: true, force: true });
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Polls until Ollama's answering is want (true or false), for up to 30 s. */
async function until(want) {
  for (let i = 0; i < 150; i++) {
    if ((await answers(`http://127.0.0.1:${port}`)) === want) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe('the first run', () => {
  test('starts an installed Ollama and advances by itself; stops it on quit', async () => {
    const { page, context, errors } = await openPage(chrome.browser, app.url);
    const guide = page.getByTestId('first-run');
    await guide.getByText('Ollama is installed but not running.').waitFor();
    // The composer stays usable meanwhile.
    assert.equal(await page.getByRole('textbox', { name: 'Message Hearth…' }).isDisabled(), false);
    await page.screenshot({ path: join(shots, 'firstrun-start.png') });
    await guide.getByTestId('start-ollama').click();
    // Ollama answers and qwen3:4b (the default model) is there: straight on to the last step.
    await guide.getByText('Your workspace').waitFor({ timeout: 20000 });
    assert.ok(await answers(`http://127.0.0.1:${port}`));
    assert.match(await guide.textContent(), /Step 3 of 3/);
    // The step is kept across a reload (and a restart).
    await page.reload();
    await page.getByTestId('first-run').getByText('Your workspace').waitFor();
    assert.deepEqual(errors, []);
    await context.close();

    home = app.home;
    await app.stop({ keepHome: true });
    app = null;
    assert.ok(await until(false), 'the Ollama Hearth started still runs after Hearth quit');
  });

  test('the next launch starts that Ollama again; killed mid-session, it comes back and the chat says so', async () => {
    app = await startHearth({ home, ollamaHost: `127.0.0.1:${port}`, env: { PATH: `${bin}:${process.env.PATH}` } });
    // Nobody clicks anything: Hearth starts it at launch, and the first message is answered.
    assert.ok(await until(true), 'Ollama does not answer after Hearth started again');
    const { page, context, errors } = await openPage(chrome.browser, app.url);
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    const notes = page.getByRole('note');
    await box.fill('hello');
    await box.press('Enter');
    await notes.filter({ hasText: 'Ollama was not running: Hearth started it' }).waitFor({ timeout: 20000 });
    await page.getByText('You said: hello').waitFor({ timeout: 20000 });

    // Killed mid-session (a crash, the OOM killer): it comes back by itself.
    process.kill(Number(readFileSync(join(bin, 'ollama.pid'), 'utf8')), 'SIGKILL');
    assert.ok(await until(false), 'the killed Ollama still answers');
    assert.ok(await until(true), 'the killed Ollama did not come back');
    await box.fill('still there?');
    await box.press('Enter');
    await notes.filter({ hasText: 'Ollama stopped while Hearth was running: Hearth started it again' }).waitFor({ timeout: 20000 });
    await page.screenshot({ path: join(shots, 'engine-restarted.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
