// Turning a stored session (backend/session) into the chat's items.
import type { SessionData } from '../api';

type Entry = SessionData['messages'][number];
import { newTurn, prettyArgs, type Item, type Turn, type TurnStatus } from './turn';


/** Images arrive from Go as base64 strings ([]byte in JSON). */
export function imageURL(b64: unknown): string {
  const s = String(b64);
  if (s.startsWith('data:')) return s;
  const kind = s.startsWith('/9j/') ? 'jpeg' : s.startsWith('R0lG') ? 'gif' : s.startsWith('UklG') ? 'webp' : 'png';
  return `data:image/${kind};base64,${s}`;
}

export function itemsFromSession(s: SessionData): { items: Item[]; interrupted: boolean } {
  const items: Item[] = [];
  const turns = new Map<string, Turn>();
  const userOf = new Map<string, number>(); // run id → index of its user message
  let n = 0;
  const entries: Entry[] = s.messages ?? [];
  for (const e of entries) {
    n++;
    if (e.role === 'user') {
      items.push({ kind: 'user', key: `u${n}`, text: e.content, images: (e.images ?? []).map(imageURL) });
      if (e.runId) userOf.set(e.runId, items.length - 1);
      continue;
    }
    if (e.role === 'system') continue;
    const runId = e.runId || `anon${n}`;
    let turn = turns.get(runId);
    if (!turn || items[items.length - 1] !== turn) {
      turn = newTurn(runId, `a${n}`);
      turn.status = 'ok';
      turns.set(runId, turn);
      items.push(turn);
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
  for (const r of s.runs ?? []) {
    let turn = turns.get(r.runId);
    if (!turn) {
      // A run that wrote no answer (an error at the first model call): show it after its
      // question so the error card is still there.
      if (r.status === 'ok' || !userOf.has(r.runId)) continue;
      turn = newTurn(r.runId, `e-${r.runId}`);
      const at = userOf.get(r.runId)! + 1;
      items.splice(at, 0, turn);
      for (const [k, v] of userOf) if (v >= at) userOf.set(k, v + 1);
      turns.set(r.runId, turn);
    }
    turn.status = (r.status || 'ok') as TurnStatus;
    turn.durationMs = r.durationMs;
    turn.promptTokens = r.usage?.promptTokens ?? 0;
    turn.completionTokens = r.usage?.completionTokens ?? 0;
    if (r.status === 'error' && r.error) turn.parts.push({ kind: 'error', code: 'error', message: r.error, hint: '' });
  }
  const interrupted = (s.interrupted ?? []).length > 0;
  for (const runId of s.interrupted ?? []) {
    const turn = turns.get(runId);
    if (turn) turn.status = 'interrupted';
  }
  return { items, interrupted };
}
