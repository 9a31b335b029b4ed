// The first run finishes itself: with `ollama` installed but not running, the guide offers
// to start it; once it answers and the model is there, the guide moves on by itself, keeps
// its step across a reload, and Hearth stops the Ollama it started when it quits.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

let chrome, app, port, bin;
before(async () => {
  chrome = await openBrowser();
  // A fake `ollama` on PATH: `ollama serve` runs the scripted fake on OLLAMA_HOST.
  bin = mkdtempSync(join(tmpdir(), 'hearth-ollama-bin-'));
  writeFileSync(join(bin, 'ollama'), `#!/bin/sh\n[ "$1" = serve ] || exit 2\nexec '${fakeOllamaBin}' -addr "$OLLAMA_HOST"\n`);
  chmodSync(join(bin, 'ollama'), 0o755);
  port = await freePort();
  app = await startHearth({ ollamaHost: `127.0.0.1:${port}`, env: { PATH: `${bin}:${process.env.PATH}` } });
});
after(async () => {
  await app?.stop();
  await chrome?.close();
  if (bin) rmSync(bin, { recursive: true, force: true });
});

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

    await app.stop();
    app = null;
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      gone = !(await answers(`http://127.0.0.1:${port}`));
      if (!gone) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(gone, 'the Ollama Hearth started still runs after Hearth quit');
  });
});
