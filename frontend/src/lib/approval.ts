// Presenting approvals: the gate's reasons in the window's language and arguments as
// readable name/value rows.
import type { ApprovalDecision } from './api';

/** The i18n key of a reason the gate gives (backend/approval), or '' for another one. */
export function reasonKey(reason: string): string {
  if (/shell command/.test(reason)) return 'approval.why.exec';
  if (/MCP server/.test(reason)) return 'approval.why.mcp';
  if (/writes a file/.test(reason)) return 'approval.why.write';
  if (/approval mode is ask/.test(reason)) return 'approval.why.ask';
  if (/always ask/.test(reason)) return 'approval.why.toolAsk';
  return '';
}

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
