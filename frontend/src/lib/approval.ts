// Presenting approvals: arguments as readable name/value rows, the answers a card offers.
// (The gate's reasons arrive as catalog codes, gate.why.*, worded with tm().)
import type { ApprovalDecision } from './api';
import { t } from './i18n.svelte';
import { KNOWN_TOOLS } from './stores/approvals.svelte';

export interface ArgRow {
  name: string;
  value: string;
  /** name in the UI language (a built-in tool's argument); absent: show the name */
  label?: string;
}

/**
 * A built-in tool's argument name in the UI language (catalog `arg.<name>`, src/i18n/<locale>/args.json);
 * an MCP tool's arguments, and names the catalog does not know, stay as the server named them.
 */
export function argLabel(tool: string, name: string): string {
  if (!name || !KNOWN_TOOLS.includes(tool)) return name;
  const key = `arg.${name}`;
  const label = t(key);
  return label === key ? name : label;
}

/**
 * The top-level arguments of a call (JSON text) as rows; strings shown as they are. With the
 * tool's name, each row carries its label in the UI language.
 */
export function argRows(json: string, tool = ''): ArgRow[] {
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
    ...(tool && argLabel(tool, name) !== name ? { label: argLabel(tool, name) } : {}),
  }));
}

export const decisions: { id: ApprovalDecision; label: string }[] = [
  { id: 'once', label: 'approval.once' },
  { id: 'chat', label: 'approval.chat' },
  { id: 'always', label: 'approval.always' },
  { id: 'deny', label: 'approval.deny' },
];
