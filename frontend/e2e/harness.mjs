// Starts the real Go backend (the dev build, serving the built frontend on a local port)
// and Debian's Chromium through playwright-core. Every run gets its own HOME and XDG dirs.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

export const repoRoot = resolve(import.meta.dirname, '../..');
const devBin = process.env.HEARTH_DEV_BIN ?? join(repoRoot, 'build/bin/hearth-dev');
const fakeOllamaBin = process.env.HEARTH_FAKEOLLAMA_BIN ?? join(repoRoot, 'build/bin/fakeollama');
const fakeNotifyBin = process.env.HEARTH_FAKENOTIFY_BIN ?? join(repoRoot, 'build/bin/fakenotify');

export async function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** Polls fn until it returns true; fails naming what after timeoutMs (a hang, not a speed). */
export async function waitFor(fn, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      if (await fn()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
}

function spawnLogged(cmd, args, opts, log) {
  const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.on('data', (d) => log.push(d.toString()));
  child.stderr.on('data', (d) => log.push(d.toString()));
  return child;
}

function killGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      done();
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, 3000).unref();
  });
}

/**
 * Starts the scripted fake Ollama server on a port; returns { host, stop }. script is a
 * fakeollama.Script ({models, replies, pulls, default}); without it the default script runs.
 */
export async function startFakeOllama(port, script) {
  port ??= await freePort();
  const log = [];
  const args = ['-addr', `127.0.0.1:${port}`];
  let dir;
  if (script) {
    dir = mkdtempSync(join(tmpdir(), 'hearth-fake-'));
    const file = join(dir, 'script.json');
    writeFileSync(file, JSON.stringify(script));
    args.push('-script', file);
  }
  const child = spawnLogged(fakeOllamaBin, args, {}, log);
  const host = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${host}/api/version`)).ok, `fake Ollama on ${host}\n${log.join('')}`);
  const stop = async () => {
    await killGroup(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  return { host, port, stop };
}

/**
 * Starts the fake notification daemon on the session bus (the test runs under
 * dbus-run-session): `list()` returns what a person would have seen, `click(id)` clicks
 * one, `invoke(id, action)` presses one of its buttons. Start it before Hearth.
 */
export async function startFakeNotifier() {
  const log = [];
  const child = spawnLogged(fakeNotifyBin, [], {}, log);
  await waitFor(async () => /http:\/\/\S+/.test(log.join('')), `fake notifier\n${log.join('')}`);
  const url = log.join('').match(/http:\/\/\S+/)[0];
  const list = async () => (await fetch(`${url}/notifications`)).json();
  const invoke = async (id, action = 'default') => {
    const r = await fetch(`${url}/invoke?id=${id}&action=${encodeURIComponent(action)}`, { method: 'POST' });
    if (!r.ok) throw new Error(`invoke ${id} ${action}: ${r.status} ${await r.text()}`);
  };
  return { url, list, invoke, click: (id) => invoke(id), stop: () => killGroup(child) };
}

function withoutLocale(env) {
  const out = { ...env };
  for (const k of ['LANG', 'LANGUAGE', 'LC_ALL', 'LC_MESSAGES']) delete out[k];
  return out;
}

/**
 * Starts the dev build with a fresh home. options.config is written to config.json as given
 * (a string is written verbatim, so tests can hand it broken JSON); options.files maps paths
 * under the home (e.g. data/hearth/cron/jobs.json) to contents written before Hearth starts;
 * options.env adds environment variables (a PATH with a fake `ollama`, say).
 */
export async function startHearth({ config, ollamaHost, files = {}, env = {}, home: reuse } = {}) {
  // home: a home an earlier Hearth of the test used (a restart); else a fresh one.
  const home = reuse ?? mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
  const xdg = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
  };
  let configPath = join(xdg.XDG_CONFIG_HOME, 'hearth', 'config.json');
  if (config !== undefined) {
    mkdirSync(join(xdg.XDG_CONFIG_HOME, 'hearth'), { recursive: true });
    writeFileSync(configPath, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = [];
  // Wails' dev mode reads its address and asset dir from the environment, not flags.
  const child = spawnLogged(
    devBin,
    [],
    {
      cwd: repoRoot,
      env: {
        // The system's language is the test's to choose (env LANG, or the browser's
        // locale when the backend hears none), never the runner's.
        ...withoutLocale(process.env),
        ...env,
        ...xdg,
        OLLAMA_HOST: ollamaHost ?? '127.0.0.1:9',
        devserver: `127.0.0.1:${port}`,
        assetdir: join(repoRoot, 'frontend/dist'),
      },
    },
    log,
  );
  await waitFor(async () => (await fetch(url)).ok, `Hearth dev server on ${url}\n${log.join('')}`);
  return {
    url,
    home,
    pid: child.pid, // names its tray item on the session bus (org.kde.StatusNotifierItem-<pid>-1)
    configPath,
    workspace: join(xdg.XDG_DATA_HOME, 'hearth', 'workspace'),
    log,
    /** Quits Hearth; keepHome leaves its home for a restart (startHearth's home). */
    async stop({ keepHome = false } = {}) {
      await killGroup(child);
      if (!keepHome) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function openBrowser() {
  // playwright-core gives Chromium a fresh temporary profile of its own.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** A page on url that fails the test on real page errors (Wails' ipc.js noise aside). */
export async function openPage(browser, url, { colorScheme = 'light', locale = 'en-US' } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 720 }, colorScheme, locale });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => {
    // Known harmless in browser mode: /wails/ipc.js expects WebKit's message handlers.
    if (!String(err.stack ?? err).includes('/wails/ipc.js')) errors.push(err);
  });
  await page.goto(url);
  return { page, errors, context };
}

/**
 * What most window tests set up in their before hook: a browser, a fake Ollama answering
 * script, Hearth on it (options.config, options.files) and a page (options.locale), with the first-run
 * guide skipped (options.skipSetup: true; 'if-shown' when a test's config may not show
 * it; false to keep it). start() resolves to { chrome, ollama, app, page, context,
 * errors }; stop() ends them all.
 */
export function hearthWindow(script, { config, files, locale, skipSetup = true } = {}) {
  const w = {};
  return {
    async start() {
      w.chrome = await openBrowser();
      w.ollama = await startFakeOllama(undefined, script);
      w.app = await startHearth({ ollamaHost: w.ollama.host, config, files });
      Object.assign(w, await openPage(w.chrome.browser, w.app.url, locale ? { locale } : {}));
      const skip = w.page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' });
      if (skipSetup === true) await skip.click();
      else if (skipSetup === 'if-shown' && (await skip.isVisible().catch(() => false))) await skip.click();
      return w;
    },
    async stop() {
      await w.context?.close();
      await w.chrome?.close();
      await w.app?.stop();
      await w.ollama?.stop();
    },
  };
}

/**
 * Types a moment, "YYYY-MM-DDTHH:MM[:SS]", into the window's date field (DateField, an
 * English window): its parts are fields of their own, not one datetime-local input.
 */
export async function fillMoment(field, moment) {
  const [, y, mo, d, h, mi, s] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(moment);
  for (const [label, v] of [['Year', y], ['Month', mo], ['Day', d], ['Hour', h], ['Minute', mi], ['Second', s ?? '00']]) {
    await field.getByRole('textbox', { name: label, exact: true }).fill(v);
  }
}
