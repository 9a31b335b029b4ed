// Settings › Approvals: the approval mode, the per-tool rules (config tools.approval) and
// where API keys are kept. Each change is saved at once through its own binding.
import { errText, type Api } from '../api';

export type ApprovalMode = 'all' | 'risky' | 'ask';
export type ToolRule = 'always' | 'ask' | 'never';
export const MODES: ApprovalMode[] = ['all', 'risky', 'ask'];
export const RULES: ToolRule[] = ['always', 'ask', 'never'];

/** Tools the agent may have (the built-ins); MCP tools are named mcp_<server>_<tool>. */
export const KNOWN_TOOLS = [
  'exec',
  'write_file',
  'edit_file',
  'read_file',
  'list_dir',
  'glob',
  'grep',
  'web_fetch',
  'web_search',
  'memory_search',
  'remember',
  'message',
  'cron',
  'spawn',
];

export interface RuleRow {
  tool: string;
  rule: ToolRule;
}

/** The per-tool rules as rows sorted by tool (a tool named twice keeps its strongest rule). */
export function ruleRows(r: { always?: string[] | null; ask?: string[] | null; never?: string[] | null }): RuleRow[] {
  const m = new Map<string, ToolRule>();
  for (const tool of r.always ?? []) m.set(tool, 'always');
  for (const tool of r.ask ?? []) m.set(tool, 'ask');
  for (const tool of r.never ?? []) m.set(tool, 'never');
  return [...m].map(([tool, rule]) => ({ tool, rule })).sort((a, b) => a.tool.localeCompare(b.tool));
}

export function createApprovalsStore(
  api: Pick<Api, 'approvalRules' | 'setApprovalMode' | 'setToolApproval' | 'secretStorage'>,
) {
  const s = $state({
    mode: 'risky' as ApprovalMode,
    rules: [] as RuleRow[],
    storage: '' as '' | 'keyring' | 'config',
    loaded: false,
    error: '',
    saved: false,
  });
  let savedTimer: ReturnType<typeof setTimeout> | undefined;

  function flashSaved() {
    s.saved = true;
    clearTimeout(savedTimer);
    savedTimer = setTimeout(() => (s.saved = false), 1500);
  }

  async function load() {
    try {
      const r = await api.approvalRules();
      s.mode = (MODES as string[]).includes(r.mode) ? (r.mode as ApprovalMode) : 'risky';
      s.rules = ruleRows(r);
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    }
    const where = await api.secretStorage().catch(() => '');
    s.storage = where === 'keyring' || where === 'config' ? where : '';
    s.loaded = true;
  }

  async function setMode(mode: ApprovalMode) {
    const old = s.mode;
    s.mode = mode;
    try {
      await api.setApprovalMode(mode);
      s.error = '';
      flashSaved();
      return true;
    } catch (err) {
      s.mode = old;
      s.error = errText(err);
      return false;
    }
  }

  /** Sets tool's rule; '' removes it (the mode decides). */
  async function setRule(tool: string, rule: ToolRule | '') {
    tool = tool.trim();
    if (!tool) return false;
    try {
      await api.setToolApproval(tool, rule);
      const rest = s.rules.filter((r) => r.tool !== tool);
      s.rules = rule ? [...rest, { tool, rule }].sort((a, b) => a.tool.localeCompare(b.tool)) : rest;
      s.error = '';
      flashSaved();
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    }
  }

  return {
    get mode() {
      return s.mode;
    },
    get rules() {
      return s.rules;
    },
    /** Where API keys are kept: "keyring", "config", or "" until known. */
    get storage() {
      return s.storage;
    },
    get loaded() {
      return s.loaded;
    },
    get error() {
      return s.error;
    },
    get saved() {
      return s.saved;
    },
    load,
    setMode,
    setRule,
  };
}

export type ApprovalsStore = ReturnType<typeof createApprovalsStore>;
