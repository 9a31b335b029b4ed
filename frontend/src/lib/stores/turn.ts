// Assembling one assistant turn from its run's events (backend/event/run.go). Pure:
// the chat store batches events and applies them here once per animation frame.
import type { RunEvent } from '../api';
import { tm, type Message } from '../i18n.svelte';

export type Part =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | {
      kind: 'tool';
      callId: string;
      name: string;
      args: string;
      result?: string;
      ok?: boolean;
      durationMs?: number;
      /** Set once the call needed approval (docs/design/safety-defaults.md#approval). */
      approval?: Approval;
      /** Why a refused call was refused, for the window to word (the result is what the model read). */
      why?: Message;
    }
  | { kind: 'notice'; level: string; message: string; code?: string; args?: Record<string, string>; lists?: Message['lists'] }
  /** The person's words handed to the model mid-turn (a steer), where it was taken. */
  | { kind: 'steer'; text: string }
  /** A slash command's reply: plain text, one backend message a line (text is the English). */
  | { kind: 'reply'; text: string; lines: Message[] }
  | {
      kind: 'error';
      code: string;
      message: string;
      hint: string;
      /** The message and hint as backend codes, and what their cause said beside them. */
      worded?: Message;
      hints?: Message[];
      detail?: string;
    };

/** The approval of one tool call: requested (the card waits), allowed or denied. */
export interface Approval {
  state: 'requested' | 'allowed' | 'denied';
  /** Which grant or rule decided (once, chat, always, user, never, cancelled, …). */
  scope: string;
  /** Why the call needs approval: the backend's English and its catalog code (gate.why.*). */
  reason: string;
  why?: Message;
  /** The arguments with secrets masked, once the backend gave them. */
  maskedArgs: string;
  /** Where the call runs (exec's working directory), on a request. */
  dir?: string;
  /** The call deletes or overwrites data: the card has no Enter default. */
  destructive?: boolean;
  /** What the sandbox lets the call do once allowed: the backend's English and its code. */
  sandbox?: string;
  sandboxNote?: Message;
  /** An answer is on its way to the backend. */
  sending: boolean;
  /** The backend refused the answer. */
  error: string;
}

export type TurnStatus = 'running' | 'ok' | 'error' | 'cancelled' | 'interrupted';

export interface Turn {
  kind: 'assistant';
  key: string;
  runId: string;
  model: string;
  parts: Part[];
  status: TurnStatus;
  promptTokens: number;
  completionTokens: number;
  contextUsed: number;
  contextLimit: number;
  durationMs: number;
  newSessionId: string;
  /** The last seq applied: replayed or duplicate events are ignored. */
  seq: number;
  /** Where earlier versions of the chat depart at this item (‹ 1/2 ›). */
  pager?: Pager;
  /** The index of the stored message it starts at (loaded from history). */
  first?: number;
  /** The slash command this turn answers: its reply is plain text, not Markdown. */
  command?: string;
  /**
   * A stopped answer going on (Continue): how long its earlier runs took, added to this
   * run's time; and whether the next text joins the stopped text (as history joins them).
   */
  carried?: number;
  joining?: boolean;
  /** A waiting message started the next turn as this one ended: its run and words. */
  next?: { runId: string; text: string };
  /** The budget that ended the turn with a summary ('toolRounds', 'time'): Continue goes on. */
  limit?: string;
}

/** One attached file's chip: name, size and pages, or the coded problem of a refused file. */
export interface FileChip {
  name: string;
  /** The copy's name in the chat's attachments folder (what citations name). */
  file?: string;
  bytes?: number;
  pages?: number;
  mode?: string;
  error?: string;
  /** The backend's words for a refused file (shown when its code is not in the catalog). */
  detail?: string;
}

export interface UserItem {
  kind: 'user';
  key: string;
  text: string;
  images: string[];
  /** The files attached to the message (their chips); those just sent have no mode yet. */
  files?: FileChip[];
  /** The words a reminder sent at its time, not something the person typed. */
  reminder?: boolean;
  /** Sent while the turn ran and handed to the model in it (a steer). */
  steer?: boolean;
  pager?: Pager;
  first?: number;
}

/** The versions of a chat departing at one message: index is the one shown (0 = oldest, total-1 = the current one). */
export interface Pager {
  at: number;
  index: number;
  total: number;
}

export type Item = UserItem | Turn;

export function newTurn(runId: string, key = `t-${runId}`): Turn {
  return {
    kind: 'assistant',
    key,
    runId,
    model: '',
    parts: [],
    status: 'running',
    promptTokens: 0,
    completionTokens: 0,
    contextUsed: 0,
    contextLimit: 0,
    durationMs: 0,
    newSessionId: '',
    seq: 0,
  };
}

function appendText(turn: Turn, kind: 'text' | 'reasoning', text: string) {
  const last = turn.parts[turn.parts.length - 1];
  if (kind === 'text' && turn.joining) {
    // The first words of a continued answer: no seam where the stopped text ended.
    turn.joining = false;
    const prev = [...turn.parts].reverse().find((p) => p.kind === 'text');
    if (prev && prev.kind === 'text' && (last === prev || last?.kind === 'notice')) {
      prev.text += glue(prev.text, text) + text;
      return;
    }
  }
  if (last && last.kind === kind) last.text += text;
  else turn.parts.push({ kind, text });
}

/** The space, if any, between a stopped answer's text and its continuation. */
export function glue(before: string, after: string): string {
  return /[A-Za-z0-9.,;:!?)]$/.test(before) && /^[A-Za-z0-9(]/.test(after) ? ' ' : '';
}

/**
 * Makes the stopped turn the one run runId goes on in: one answer shown while it streams,
 * its time and tokens the sums of both runs.
 */
export function continueTurn(turn: Turn, runId: string): void {
  turn.carried = (turn.carried ?? 0) + turn.durationMs;
  turn.runId = runId;
  turn.seq = 0;
  turn.status = 'running';
  turn.joining = true;
}

const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v));
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
/** A message's arguments: string values only (what backend/i18n sends). */
const strings = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

/** Backend messages ({code, args}) from an event's field; anything else is dropped. */
const messages = (v: unknown): Message[] =>
  Array.isArray(v)
    ? v.filter((m) => m && typeof m === 'object' && typeof m.code === 'string').map((m) => ({ code: m.code, args: strings(m.args) }))
    : [];

/** The error card of an error event, or of the same event kept with its run (session.Run.failure). */
export function errorPart(ev: Record<string, unknown>): Part {
  return {
    kind: 'error',
    code: str(ev.code),
    message: str(ev.message),
    hint: str(ev.hint),
    worded: messages([ev.text])[0],
    hints: ev.hintText ? messages(ev.hintText) : undefined,
    detail: str(ev.detail) || undefined,
  };
}

/** Applies one event to turn (in place). */
export function applyEvent(turn: Turn, ev: RunEvent): void {
  if (ev.seq && ev.seq <= turn.seq) return;
  if (ev.seq) turn.seq = ev.seq;
  switch (ev.type) {
    case 'run_started':
      turn.model = str(ev.model);
      turn.status = 'running';
      if (ev.command) turn.command = str(ev.command);
      break;
    case 'text_delta':
      if (Array.isArray(ev.lines)) turn.parts.push({ kind: 'reply', text: str(ev.text), lines: messages(ev.lines) });
      else appendText(turn, 'text', str(ev.text));
      break;
    case 'reasoning_delta':
      appendText(turn, 'reasoning', str(ev.text));
      break;
    case 'tool_call':
      turn.parts.push({ kind: 'tool', callId: str(ev.callId), name: str(ev.name), args: prettyArgs(ev.args) });
      break;
    case 'approval': {
      const part = turn.parts.find((p) => p.kind === 'tool' && p.callId === ev.callId);
      if (part && part.kind === 'tool') {
        const state = str(ev.state);
        if (state !== 'requested' && state !== 'allowed' && state !== 'denied') break;
        const prev = part.approval;
        part.approval = {
          state,
          scope: str(ev.scope),
          reason: prev?.reason ?? '',
          why: prev?.why,
          maskedArgs: prev?.maskedArgs ?? '',
          dir: str(ev.dir) || prev?.dir || '',
          destructive: ev.destructive === true || prev?.destructive === true,
          sandbox: str(ev.sandbox) || prev?.sandbox || '',
          sandboxNote: messages([ev.sandboxNote])[0] ?? prev?.sandboxNote,
          sending: false,
          error: '',
        };
      }
      break;
    }
    case 'tool_result': {
      const part = turn.parts.find((p) => p.kind === 'tool' && p.callId === ev.callId);
      if (part && part.kind === 'tool') {
        part.result = str(ev.content);
        part.ok = ev.ok === true;
        part.durationMs = num(ev.durationMs);
        if (ev.code) part.why = { code: str(ev.code), args: strings(ev.args) };
      }
      break;
    }
    case 'usage':
      // Summed over the run's model calls, as the run line stores it: the figure under a
      // reply stays the same when the chat is reopened.
      turn.promptTokens += num(ev.promptTokens);
      turn.completionTokens += num(ev.completionTokens);
      turn.contextUsed = num(ev.contextUsed);
      turn.contextLimit = num(ev.contextLimit);
      break;
    case 'notice':
      turn.parts.push({ kind: 'notice', level: str(ev.level), message: str(ev.message), code: str(ev.code), args: strings(ev.args), lists: ev.lists as Message['lists'] });
      break;
    case 'error':
      turn.parts.push(errorPart(ev));
      break;
    case 'pending_taken':
      // A steer taken at a safe point is the person's words from here on; one that
      // starts the next turn is shown as that turn's question instead.
      if (ev.nextRunId) turn.next = { runId: str(ev.nextRunId), text: str(ev.text) };
      else turn.parts.push({ kind: 'steer', text: str(ev.text) });
      break;
    case 'run_finished':
      turn.status = (str(ev.status) || 'ok') as TurnStatus;
      turn.durationMs = (turn.carried ?? 0) + num(ev.durationMs);
      turn.newSessionId = str(ev.newSessionId);
      if (ev.limit) turn.limit = str(ev.limit);
      break;
  }
}

export function prettyArgs(args: unknown): string {
  if (args == null) return '{}';
  try {
    const v = typeof args === 'string' ? JSON.parse(args) : args;
    return JSON.stringify(v, null, 2);
  } catch {
    return String(args);
  }
}

/** The tool calls of items that wait for the user's approval, oldest first. */
export function waitingCalls(items: Item[]): { runId: string; part: Extract<Part, { kind: 'tool' }> }[] {
  const out: { runId: string; part: Extract<Part, { kind: 'tool' }> }[] = [];
  for (const it of items) {
    if (it.kind !== 'assistant') continue;
    for (const p of it.parts) if (p.kind === 'tool' && p.approval?.state === 'requested') out.push({ runId: it.runId, part: p });
  }
  return out;
}

/** The turn's answer text (what Copy copies). */
export function turnText(turn: Turn): string {
  return turn.parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'reply' ? linesText(p.lines, p.text) : '')).join('');
}

/**
 * Backend messages, one a line, in the UI language: a slash reply, an error's hints.
 * english (what the backend sent beside them) stands in when a code is unknown.
 */
export function linesText(lines: Message[], english: string): string {
  return lines.length && lines.every((l) => tm(l) !== l.code) ? lines.map((l) => tm(l)).join('\n') : english;
}
