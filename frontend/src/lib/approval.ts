// Presenting approvals: arguments as readable name/value rows, the answers a card offers.
// (The gate's reasons arrive as catalog codes, gate.why.*, worded with tm().)
import type { ApprovalDecision } from './api';

export interface ArgRow {
  name: string;
  value: string;
}

/** The top-level arguments of a call (JSON text) as rows; strings shown as they are. */
export function argRows(json: string): ArgRow[] {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return json.trim() ? [{ name: '', value: json }] : [];
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [{ name: '', value: JSON.stringify(v, null, 2) }];
  return Object.entries(v as Record<string, unknown>).map(([name, val]) => ({
    name,
    value: typeof val === 'string' ? val : JSON.stringify(val, null, 2),
  }));
}

export const decisions: { id: ApprovalDecision; label: string }[] = [
  { id: 'once', label: 'approval.once' },
  { id: 'chat', label: 'approval.chat' },
  { id: 'always', label: 'approval.always' },
  { id: 'deny', label: 'approval.deny' },
];
