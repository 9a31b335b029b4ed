// Turning a stored session (backend/session) into the chat's items.
import type { SessionData } from '../api';

type Entry = SessionData['messages'][number];
import { errorPart, glue, newTurn, prettyArgs, type Item, type Turn, type TurnStatus } from './turn';


/** Images arrive from Go as base64 strings ([]byte in JSON). */
export function imageURL(b64: unknown): string {
  const s = String(b64);
  if (s.startsWith('data:')) return s;
  const kind = s.startsWith('/9j/') ? 'jpeg' : s.startsWith('R0lG') ? 'gif' : s.startsWith('UklG') ? 'webp' : 'png';
  return `data:image/${kind};base64,${s}`;
}

/** Which earlier version is shown where the chat departs at message at (index into its versions, oldest first). */
export interface VersionChoice {
  at: number;
  index: number;
}

/** The items of a chat with versions: the current one, or the earlier one chosen; the item where versions depart carries a pager. */
export function itemsWithVersions(s: SessionData, choice: VersionChoice | null = null): { items: Item[]; interrupted: boolean } {
  const versions = s.versions ?? [];
  const live = s.messages ?? [];
  const chosen = choice ? versions.filter((v) => v.at === choice.at)[choice.index] : undefined;
  let data = s;
  if (choice && chosen) {
    data = {
      ...s,
      messages: [...live.slice(0, choice.at), ...(chosen.messages ?? [])],
      runs: [...(s.runs ?? []), ...(chosen.runs ?? [])],
      interrupted: [],
    } as unknown as SessionData;
  }
  const built = itemsFromSession(data);
  const count = new Map<number, number>();
  for (const v of versions) count.set(v.at, (count.get(v.at) ?? 0) + 1);
  for (const it of built.items) {
    const at = firstOf.get(it);
    if (at === undefined || !count.has(at)) continue;
    // Past a chosen earlier version, the later departures belong to the current one.
    if (choice && chosen && at > choice.at) continue;
    const total = count.get(at)! + 1;
    it.pager = { at, total, index: choice && chosen && choice.at === at ? choice.index : total - 1 };
  }
  return built;
}

/** The index of the first stored message each built item came from. */
const firstOf = {
  get: (it: Item | undefined) => it?.first,
  set: (it: Item, n: number) => void (it.first = n),
};

/** The position in items of the item that shows stored message index (a search hit), or -1. */
export function itemOfMessage(items: readonly Item[], index: number): number {
  let best = -1;
  for (let i = 0; i < items.length; i++) {
    const f = firstOf.get(items[i]);
    if (f !== undefined && f <= index) best = i;
  }
  return best;
}

/** Whether a reminder chat's own id ("cron:…", see reminders.jobSession). */
export const isReminderChat = (id: string | undefined) => !!id && id.startsWith('cron:');
/** A chat that lives in a channel: its id is "<channel>:<chat id>" (telegram:123). */
export const isChannelChat = (id: string | undefined, channel: string) => !!id && id.startsWith(`${channel}:`);

/**
 * Which runs a reminder started: its run line says so (channel "cron"); in a reminder's
 * own chat, a run still going (no line yet) is the reminder's too unless it came from the window.
 */
function remindedRuns(s: SessionData): (runId: string) => boolean {
  const runs = new Map((s.runs ?? []).map((r) => [r.runId, r.channel ?? '']));
  return (id) => (runs.has(id) ? runs.get(id) === 'cron' : isReminderChat(s.id));
}

export function itemsFromSession(s: SessionData): { items: Item[]; interrupted: boolean } {
  const items: Item[] = [];
  const turns = new Map<string, Turn>();
  const userOf = new Map<string, number>(); // run id → index of its user message
  let n = 0;
  const entries: Entry[] = s.messages ?? [];
  const stopped = new Set((s.runs ?? []).filter((r) => r.status === 'cancelled').map((r) => r.runId));
  const reminded = remindedRuns(s);
  for (const e of entries) {
    n++;
    if (e.role === 'user') {
      // A second question of one run was a steer, taken while the run went on.
      const steer = !!e.runId && userOf.has(e.runId);
      const files = (e.attachments ?? []).map((a) => ({ name: a.name, file: a.file, bytes: a.bytes, pages: a.pages, mode: a.mode, error: a.error, detail: a.detail }));
      items.push({ kind: 'user', key: `u${n}`, text: e.content, images: (e.images ?? []).map(imageURL), ...(files.length ? { files } : {}), ...(steer ? { steer } : {}) });
      if (e.runId && reminded(e.runId)) (items[items.length - 1] as Extract<Item, { kind: 'user' }>).reminder = true;
      firstOf.set(items[items.length - 1], n - 1);
      if (e.runId) userOf.set(e.runId, items.length - 1);
      continue;
    }
    if (e.role === 'system') continue;
    const runId = e.runId || `anon${n}`;
    let turn = turns.get(runId);
    const prev = items[items.length - 1];
    if (!turn && prev?.kind === 'assistant' && stopped.has(prev.runId) && e.role === 'assistant') {
      // Continue after Stop: the answer that went on is shown as one with the stopped one.
      turns.set(runId, prev);
      turn = prev;
      const lastPart = prev.parts[prev.parts.length - 1];
      if (e.content && lastPart?.kind === 'text' && !e.reasoning && !(e.toolCalls ?? []).length) {
        lastPart.text += glue(lastPart.text, e.content) + e.content;
        continue;
      }
    }
    if (!turn || items[items.length - 1] !== turn) {
      turn = newTurn(runId, `a${n}`);
      turn.status = 'ok';
      turns.set(runId, turn);
      items.push(turn);
      firstOf.set(turn, n - 1);
    }
    if (e.role === 'assistant') {
      if (e.reasoning) turn.parts.push({ kind: 'reasoning', text: e.reasoning });
      for (const c of e.toolCalls ?? []) {
        turn.parts.push({ kind: 'tool', callId: c.id, name: c.name, args: prettyArgs(c.arguments) });
      }
      if (e.content) turn.parts.push({ kind: 'text', text: e.content });
    } else if (e.role === 'tool') {
      const part = turn.parts.find((p) => p.kind === 'tool' && p.callId === e.toolCallId);
      if (part && part.kind === 'tool') {
        part.result = e.content;
        part.ok = !/^error/i.test(e.content);
      }
    }
  }
  const runs = s.runs ?? [];
  const counted = new Set<Turn>();
  for (const [ri, r] of runs.entries()) {
    let turn = turns.get(r.runId);
    if (!turn) {
      // A run that wrote no answer (an error at the first model call): show it after its
      // question so the error card is still there; a regenerated one that failed so, last.
      if (r.status === 'ok') continue;
      const last = ri === runs.length - 1 && items[items.length - 1]?.kind === 'user';
      if (!userOf.has(r.runId) && !last) continue;
      turn = newTurn(r.runId, `e-${r.runId}`);
      const at = userOf.has(r.runId) ? userOf.get(r.runId)! + 1 : items.length;
      items.splice(at, 0, turn);
      firstOf.set(turn, entriesBefore(items, at));
      for (const [k, v] of userOf) if (v >= at) userOf.set(k, v + 1);
      turns.set(r.runId, turn);
    }
    turn.status = (r.status || 'ok') as TurnStatus;
    // A stopped answer that went on (Continue) is one turn of two runs: its figures are
    // their sums, as they were shown live under the two parts.
    const first = !counted.has(turn);
    counted.add(turn);
    turn.durationMs = (first ? 0 : turn.durationMs) + r.durationMs;
    turn.promptTokens = (first ? 0 : turn.promptTokens) + (r.usage?.promptTokens ?? 0);
    turn.completionTokens = (first ? 0 : turn.completionTokens) + (r.usage?.completionTokens ?? 0);
    if (r.model) turn.model = r.model;
    if (r.limit) turn.limit = r.limit;
    // What the run told about the message's files ("report.pdf: whole"), at the turn's start
    // as it was shown live; a run that went on (Continue) tells the same again: once.
    const told = new Set(turn.parts.map((p) => (p.kind === 'notice' ? `${p.code}:${JSON.stringify(p.args ?? {})}` : '')));
    const notes = (r.notes ?? []).filter((n) => !told.has(`${n.code}:${JSON.stringify(n.args ?? {})}`));
    turn.parts.unshift(...notes.map((n) => ({ kind: 'notice' as const, level: n.level, message: n.message, code: n.code, args: n.args })));
    // The card as it was shown live (its code, wording and hint); a run stored before
    // runs kept it has its English message only.
    if (r.status === 'error' && r.failure) turn.parts.push(errorPart(r.failure as unknown as Record<string, unknown>));
    else if (r.status === 'error' && r.error) turn.parts.push({ kind: 'error', code: 'error', message: r.error, hint: '' });
  }
  const interrupted = (s.interrupted ?? []).length > 0;
  for (const runId of s.interrupted ?? []) {
    const turn = turns.get(runId);
    if (turn) turn.status = 'interrupted';
  }
  return { items, interrupted };
}

/** Where a text that went on after Stop joins the stopped part: a space between words (trimmed when stored). */

/** The message index an error turn inserted at items[at] stands at: that of the item before it, plus one. */
function entriesBefore(items: Item[], at: number): number {
  for (let i = at - 1; i >= 0; i--) {
    const f = firstOf.get(items[i]);
    if (f !== undefined) return f + 1;
  }
  return 0;
}
