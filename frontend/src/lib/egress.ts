// The egress log as Activity › Network shows it: the app's own status checks (one every
// few seconds while Ollama is down) would bury the connections a person looks for, so
// they are folded into one row per host that says how many there were and the last one.
import type { EgressEntry } from './api';

/** Purposes of the app's own polls (backend/models: the footer's Ollama check). */
const OWN_POLLS = new Set(['Ollama check']);

export type EgressRow = { entry: EgressEntry; count: number };

/** The rows to show: each connection, with the app's own polls folded (refusals stay apart). */
export function egressRows(entries: readonly EgressEntry[]): EgressRow[] {
  const rows: EgressRow[] = [];
  const folded = new Map<string, EgressRow>();
  for (const e of entries) {
    if (!OWN_POLLS.has(e.purpose) || e.refused) {
      rows.push({ entry: e, count: 1 });
      continue;
    }
    const key = `${e.purpose}\u0000${e.host}`;
    const row = folded.get(key);
    if (row) {
      row.count++;
      if (e.time > row.entry.time) row.entry = e; // the last one's time and state
      continue;
    }
    const fresh = { entry: e, count: 1 };
    folded.set(key, fresh);
    rows.push(fresh);
  }
  return rows;
}
