// The one place that talks to the Go side (Wails bindings and events). Components and
// stores import from here, so tests can replace this module with a fake. The Go side is
// one bound struct per area of the window (ChatAPI, MemoryAPI, …) and App for the window
// itself (app.go).
import * as App from '../../wailsjs/go/main/App';
import * as ChatAPI from '../../wailsjs/go/main/ChatAPI';
import * as SessionsAPI from '../../wailsjs/go/main/SessionsAPI';
import * as ModelsAPI from '../../wailsjs/go/main/ModelsAPI';
import * as SettingsAPI from '../../wailsjs/go/main/SettingsAPI';
import * as SafetyAPI from '../../wailsjs/go/main/SafetyAPI';
import * as MemoryAPI from '../../wailsjs/go/main/MemoryAPI';
import * as RemindersAPI from '../../wailsjs/go/main/RemindersAPI';
import * as ReachAPI from '../../wailsjs/go/main/ReachAPI';
import * as ChannelsAPI from '../../wailsjs/go/main/ChannelsAPI';
import * as KnowledgeAPI from '../../wailsjs/go/main/KnowledgeAPI';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import { tm, type Message } from './i18n.svelte';
import type { approval, attach, audit, chat, config, dream, event, extract, fitness, knowledge, memory, memrepo, models, reach, recall, reminders, schedule, session, sessions, settings, skills } from '../../wailsjs/go/models';

/** What the footer and setup read: settings.Status in Go (camelCase JSON fields). */
export type Status = Omit<settings.Status, 'apiKeys' | 'convertValues'> & { apiKeys?: PlainKeyReport };
export type SessionSummary = session.Summary;
export type SessionData = sessions.History;
/** A search hit in the chats (sessions.ChatHit): index -1 is the title. */
export type ChatHit = sessions.ChatHit;
export type ModelEntry = models.ModelEntry;
/** A model's fitness check (fitness.Result): how it calls tools, its speed and window. */
export type ModelCheck = fitness.Result;
export type Settings = settings.Settings;
export type SaveResult = settings.SaveResult;
export type FirstRunInfo = models.FirstRun;
export type Usage = event.UsageData;
export type MemoryFileInfo = memory.FileInfo;
export type MemoryFile = memory.File;
export type MemorySaveResult = memory.SaveResult;
export type MemoryResults = recall.Results;
export type MemoryHit = recall.Hit;
export type MemoryRev = memrepo.Rev;
/** A knowledge folder with its status (knowledge.Status). */
export type KnowledgeFolder = Omit<knowledge.Status, 'convertValues'>;
/** A cited file's text around the cited line (backend/extract, View). */
export type FileView = extract.View;
export type MemoryProposal = memory.Proposal;
export type MemoryHunk = memory.Hunk;
export type ReviewSettings = { enabled: boolean; expireHours: number; onExpiry: string };
export type DreamStatus = dream.Status;
export type DreamReport = dream.Report;
/** A tool call waiting for the user (approval.Pending; args are masked JSON). */
export type PendingApproval = Omit<approval.Pending, 'args' | 'convertValues'> & { args: unknown };
/** One line of the audit log (audit.Entry; args are masked JSON). */
export type AuditEntry = Omit<audit.Entry, 'args' | 'convertValues'> & { args: unknown };
/** One outbound connection (egress.Entry). */
export type EgressEntry = { time: string; host: string; via?: string; purpose: string; local?: boolean; refused?: boolean; error?: string };
/** What the Activity view asks for (audit.Filter; times as RFC 3339, omitted when unset). */
export type AuditFilter = Partial<Omit<audit.Filter, 'since' | 'until' | 'convertValues'>> & { since?: string; until?: string };
export type ApprovalRules = config.Approval;
export type ApprovalDecision = 'once' | 'chat' | 'always' | 'deny';
export type Job = schedule.Job;
export type JobSpec = schedule.JobSpec;
export type JobProblem = schedule.JobProblem;
export type RunRecord = schedule.RunRecord;
export type BackgroundSettings = reminders.BackgroundSettings;
/** API keys written in config.json in plain text (settings.PlainKeyReport). */
export type PlainKeyReport = Omit<settings.PlainKeyReport, 'convertValues'>;
/** A missed reminder or a damaged jobs file, shown until dismissed (reminders.Notice; times as RFC 3339). */
export type Notice = reminders.Notice;
/** What reminders, the heartbeat and helpers report (event.Background, "background"). */
export interface BackgroundEvent {
  kind: 'message' | 'reminder' | 'reminderAnswer' | 'heartbeat' | 'notice' | 'jobs' | 'subagent';
  title: string;
  text: string;
  sessionId?: string;
  jobId?: string;
  /** Names the message for translation (with args); text is its English. */
  code?: string;
  args?: Record<string, string>;
}
/** One platform user (channels.Peer; since as RFC 3339, absent when unknown). */
export type ChannelPeer = { id: string; name: string; since?: string };
/** Telegram as Settings › Channels shows it (channels.TelegramStatus; times as RFC 3339). */
export type TelegramStatus = {
  enabled: boolean;
  hasToken: boolean;
  state: 'off' | 'connecting' | 'ready' | 'error' | 'localOnly' | 'elsewhere' | string;
  bot?: string;
  problem?: Problem;
  code?: string;
  codeExpires?: string;
  paired: ChannelPeer[] | null;
  requests: ChannelPeer[] | null;
  groups: boolean;
  notifyIn: 'desktop' | 'telegram' | 'both' | string;
};
export type ChannelsStatus = { telegram: TelegramStatus };
export type McpServer = reach.MCPServerView;
export type McpConfig = config.MCPServer;
export type McpTest = reach.MCPTestView;
export type Skill = skills.Skill;
/** One message to send (chat.Input): again regenerates the last answer, edit (1-based) replaces that question, resume continues a stopped answer. */
export type ChatInput = { sessionId: string; text: string; images: string[]; model: string; again?: boolean; edit?: number; resume?: boolean; mode?: SendMode; files?: string[]; pasted?: { name: string; data: string }[] };
/** A file dropped on the window, checked (attach.Dropped): a path to send, a picture, or refused (error). */
export type DroppedFile = attach.Dropped;

/** A file attached to a message, as recorded (llm.Attachment): mode "whole", "searched" or "refused" (error is its code). */
export type FileRecord = { name: string; kind?: string; bytes: number; pages?: number; file?: string; mode: string; passages?: number; error?: string; detail?: string };
/** What a message sent while a turn runs does (docs/chat.md#while-it-works). */
export type SendMode = 'steer' | 'queue' | 'stop';
/** A message waiting for a chat's turn (session.Pending); held ones wait to be sent again. */
export type PendingMessage = { id: string; mode: 'steer' | 'queue'; text: string; at: string; channel?: string; held?: boolean };
/** What became of a message sent with a mode (chat.Sent): a turn started, or it waits. */
export type Sent = { runId?: string; pending?: PendingMessage };

/**
 * One event of a run's stream (backend/event/run.go, flattened). A text or reasoning delta
 * with firstSeq merges the deltas firstSeq..seq (the window gets at most about one a frame).
 */
export interface RunEvent {
  runId: string;
  sessionId: string;
  seq: number;
  type:
    | 'run_started'
    | 'text_delta'
    | 'reasoning_delta'
    | 'tool_call'
    | 'approval'
    | 'tool_result'
    | 'usage'
    | 'notice'
    | 'error'
    | 'pending'
    | 'pending_taken'
    | 'pending_dropped'
    | 'run_finished';
  [field: string]: unknown;
}

/** One progress report of a model download (models.PullEvent). */
export interface PullEvent {
  pullId: string;
  model: string;
  status: string;
  digest?: string;
  total?: number;
  completed?: number;
  done: boolean;
  error?: string;
  /** A failure as catalog codes naming the model (models.PullEvent.Why). */
  why?: Problem;
  /** The provider's own words about a failure, shown behind "Details". */
  detail?: string;
}

export async function getStatus(): Promise<Status> {
  return SettingsAPI.Status();
}

/** Subscribes to a stream and tells the backend to deliver it; returns the unsubscribe. */
async function follow<T>(channel: string, fn: (ev: T) => void): Promise<() => void> {
  const off = EventsOn(channel, (ev: T) => fn(ev));
  await App.AttachEvents(channel);
  return off;
}

export const api = {
  status: getStatus,
  send: (input: ChatInput) => ChatAPI.SendMessage(input as chat.Input),
  submit: (input: ChatInput) => ChatAPI.SubmitMessage(input as chat.Input) as Promise<Sent>,
  pendingMessages: (sessionId: string) => ChatAPI.PendingMessages(sessionId) as Promise<PendingMessage[]>,
  editPending: (sessionId: string, id: string, text: string, mode: string) =>
    ChatAPI.EditPending(sessionId, id, text, mode) as Promise<PendingMessage>,
  removePending: (sessionId: string, id: string) => ChatAPI.RemovePending(sessionId, id),
  sendPending: (sessionId: string, id: string) => ChatAPI.SendPending(sessionId, id),
  followRun: (runId: string, fn: (ev: RunEvent) => void) => follow<RunEvent>(`run:${runId}`, fn),
  stop: (sessionId: string) => ChatAPI.StopRun(sessionId),
  denyInstead: (sessionId: string) => ChatAPI.DenyInstead(sessionId),
  continueRun: (sessionId: string) => ChatAPI.ContinueRun(sessionId),
  listSessions: () => SessionsAPI.ListSessions(),
  loadSession: (id: string) => SessionsAPI.LoadSession(id),
  renameSession: (id: string, title: string) => SessionsAPI.RenameSession(id, title),
  deleteSession: (id: string) => SessionsAPI.DeleteSession(id),
  setChatModel: (id: string, model: string) => SessionsAPI.SetChatModel(id, model),
  searchChats: async (query: string, limit = 30): Promise<ChatHit[]> => (await SessionsAPI.SearchChats(query, limit)) ?? [],
  exportSession: (id: string, title: string, format: 'markdown' | 'json', dialogTitle: string) =>
    SessionsAPI.ExportSession(id, title, format, dialogTitle),
  sessionUsage: (id: string) => ChatAPI.SessionUsage(id),
  listModels: () => ModelsAPI.ListModels(),
  pullModel: (name: string) => ModelsAPI.PullModel(name),
  followPull: (pullId: string, fn: (ev: PullEvent) => void) => follow<PullEvent>(`pull:${pullId}`, fn),
  cancelPull: (pullId: string) => ModelsAPI.CancelPull(pullId),
  deleteModel: (name: string) => ModelsAPI.DeleteModel(name),
  // The model fitness check (up to half a minute); background checks arrive as "models:checked".
  checkModel: (name: string) => ModelsAPI.CheckModel(name),
  // "Offer tools anyway" for a model, kept per model and digest; the next turn honours it.
  setToolsAnyway: (name: string, on: boolean) => ModelsAPI.SetToolsAnyway(name, on),
  onModelChecked: (fn: (r: ModelCheck) => void): (() => void) => EventsOn('models:checked', fn),
  getSettings: () => SettingsAPI.GetSettings(),
  saveSettings: (s: Settings) => SettingsAPI.SaveSettings(s),
  firstRun: () => ModelsAPI.FirstRun(),
  startOllama: () => ModelsAPI.StartOllama(),
  chooseFolder: (title: string) => App.ChooseFolder(title),
  chooseFiles: (title: string) => App.ChooseFiles(title),
  openAttachment: (sessionId: string, file: string) => ChatAPI.OpenAttachment(sessionId, file),
  viewAttachment: (sessionId: string, file: string, line: number): Promise<FileView> => ChatAPI.ViewAttachment(sessionId, file, line),
  // Files dropped on the window from the desktop: the native drop (wails:file-drop, main.go's
  // DragAndDrop) gives their paths, checked by the backend as the picker's are when sent.
  onFileDrop: (fn: (files: DroppedFile[]) => void): (() => void) =>
    EventsOn('wails:file-drop', (_x: number, _y: number, paths: unknown) => {
      if (!Array.isArray(paths) || paths.length === 0) return;
      ChatAPI.DroppedFiles(paths.map(String)).then((d) => fn(d ?? []), () => {});
    }),
  // Settings › Knowledge (app_knowledge.go): adding indexes in the background.
  listKnowledge: async (): Promise<KnowledgeFolder[]> => (await KnowledgeAPI.ListKnowledge()) ?? [],
  addKnowledge: (path: string, mode: string): Promise<KnowledgeFolder> => KnowledgeAPI.AddKnowledge(path, mode),
  removeKnowledge: (path: string) => KnowledgeAPI.RemoveKnowledge(path),
  setKnowledgeMode: (path: string, mode: string) => KnowledgeAPI.SetKnowledgeMode(path, mode),
  setKnowledgeWritable: (path: string, on: boolean) => KnowledgeAPI.SetKnowledgeWritable(path, on),
  openKnowledge: (place: string) => KnowledgeAPI.OpenKnowledge(place),
  viewKnowledge: (place: string): Promise<FileView> => KnowledgeAPI.ViewKnowledge(place),
  // The memory sidebar (app_memory.go); changes arrive as "memory:changed" with the path.
  listMemoryFiles: () => MemoryAPI.ListMemoryFiles(),
  readMemoryFile: (name: string) => MemoryAPI.ReadMemoryFile(name),
  saveMemoryFile: (name: string, content: string, expectedHash: string) => MemoryAPI.SaveMemoryFile(name, content, expectedHash),
  searchMemory: (query: string, k: number) => MemoryAPI.SearchMemory(query, k),
  onMemoryChange: (fn: (name: string) => void): (() => void) => EventsOn('memory:changed', (name: string) => fn(name)),
  // The history of versions of the memory files (app_memory.go): newest first, a change's diff, restore.
  memoryHistory: async (file: string): Promise<MemoryRev[]> => (await MemoryAPI.MemoryHistory(file)) ?? [],
  memoryDiff: (rev: string, file: string) => MemoryAPI.MemoryDiff(rev, file),
  restoreMemory: (rev: string, file: string) => MemoryAPI.RestoreMemory(rev, file),
  // What restoring rev would change in file as it is now (a unified diff; "" when nothing).
  restorePreview: (rev: string, file: string) => MemoryAPI.RestorePreview(rev, file),
  // The memory inbox: changes by Dream, consolidation and the remember tool held for review.
  memoryProposals: async (): Promise<MemoryProposal[]> => (await MemoryAPI.MemoryProposals()) ?? [],
  decideMemoryHunk: (id: string, hunk: number, action: 'approve' | 'reject', text?: string) =>
    MemoryAPI.DecideMemoryHunk(id, hunk, action, text ?? '', text !== undefined),
  reviewSettings: () => MemoryAPI.ReviewSettings(),
  setReviewSettings: (rs: ReviewSettings) => MemoryAPI.SetReviewSettings(rs as memory.ReviewSettings),
  // Dream, the memory upkeep system job (app_dream.go): pause, run now, never delete.
  dreamStatus: () => MemoryAPI.DreamStatus(),
  pauseDream: (paused: boolean) => MemoryAPI.PauseDream(paused),
  runDreamNow: () => MemoryAPI.RunDreamNow(),
  approve: (runId: string, callId: string, decision: ApprovalDecision) => SafetyAPI.Approve(runId, callId, decision),
  pendingApprovals: async (): Promise<PendingApproval[]> => (await SafetyAPI.PendingApprovals()) ?? [],
  activity: async (filter: AuditFilter): Promise<AuditEntry[]> => (await SafetyAPI.Activity(filter as audit.Filter)) ?? [],
  /** The egress log: connections Hearth made or refused, newest first. */
  egressLog: async (): Promise<EgressEntry[]> => ((await SafetyAPI.EgressLog()) ?? []) as EgressEntry[],
  approvalRules: () => SafetyAPI.ApprovalRules(),
  setApprovalMode: (mode: string) => SafetyAPI.SetApprovalMode(mode),
  setToolApproval: (tool: string, rule: string) => SafetyAPI.SetToolApproval(tool, rule),
  secretStorage: () => SettingsAPI.SecretStorage(),
  // API keys in config.json in plain text (app_keys.go)
  plainKeys: (): Promise<PlainKeyReport> => SettingsAPI.PlainKeys(),
  moveKeyToKeyring: (provider: string) => SettingsAPI.MoveKeyToKeyring(provider),
  // Reminders and background settings (app_reminders.go)
  listJobs: () => RemindersAPI.ListJobs(),
  jobProblems: () => RemindersAPI.JobProblems(),
  addJob: (spec: JobSpec) => RemindersAPI.AddJob(spec),
  editJob: (id: string, spec: JobSpec) => RemindersAPI.EditJob(id, spec),
  removeJob: (id: string) => RemindersAPI.RemoveJob(id),
  runJobNow: (id: string) => RemindersAPI.RunJobNow(id),
  pauseJob: (id: string, paused: boolean) => RemindersAPI.PauseJob(id, paused),
  setRemindersPaused: (paused: boolean) => RemindersAPI.SetRemindersPaused(paused),
  getBackgroundSettings: () => RemindersAPI.GetBackgroundSettings(),
  setHeartbeat: (enabled: boolean, minutes: number) => RemindersAPI.SetHeartbeat(enabled, minutes),
  setMissedRuns: (policy: string) => RemindersAPI.SetMissedRuns(policy),
  setCloseToTray: (on: boolean) => RemindersAPI.SetCloseToTray(on),
  setLaunchAtLogin: (on: boolean) => RemindersAPI.SetLaunchAtLogin(on),
  backgroundNotices: async (): Promise<Notice[]> => (await RemindersAPI.BackgroundNotices()) ?? [],
  dismissNotice: (id: string) => RemindersAPI.DismissNotice(id),
  answerMissed: (id: string, run: boolean) => RemindersAPI.AnswerMissed(id, run),
  // Background work (background.go): events, a chat to open, the tray's New chat
  onBackground: (fn: (ev: BackgroundEvent) => void) => EventsOn('background', fn),
  onOpenSession: (fn: (sessionId: string) => void) => EventsOn('session:open', fn),
  onNewSession: (fn: () => void) => EventsOn('session:new', fn),
  /** The chat to open or start that a notification or the tray asked for, once (app_nav.go). */
  takeNavigation: (): Promise<event.Nav> => App.TakeNavigation(),
  // The tray's Quick ask (app_quickask.go): the window becomes a small box (true) and back (false).
  onQuickAsk: (fn: (open: boolean) => void): (() => void) => {
    const offs = [EventsOn('quickask:open', () => fn(true)), EventsOn('quickask:close', () => fn(false))];
    return () => offs.forEach((off) => off());
  },
  /** Puts the window back as it was before Quick ask (stay: keep it shown, to open the answer's chat). */
  quickAskDone: (stay: boolean) => App.QuickAskDone(stay),
  /** Whether the window is the Quick ask box now (a page that loads later missed the event). */
  quickAskOpen: () => App.QuickAskOpen(),
  listMcpServers: () => ReachAPI.ListMCPServers(),
  /** A server connected, failed, was added or removed (background.go's "mcp:changed"): reload the list. */
  onMcpChange: (fn: (server: string) => void): (() => void) => EventsOn('mcp:changed', (c: { server: string }) => fn(c.server)),
  saveMcpServer: (name: string, c: McpConfig) => ReachAPI.SaveMCPServer(name, c),
  removeMcpServer: (name: string) => ReachAPI.RemoveMCPServer(name),
  importClaudeDesktop: (block: string) => ReachAPI.ImportClaudeDesktop(block),
  testMcpServer: (name: string) => ReachAPI.TestMCPServer(name),
  testMcpDraft: (name: string, c: McpConfig) => ReachAPI.TestMCPDraft(name, c),
  listSkills: () => ReachAPI.ListSkills(),
  setSkillEnabled: (name: string, enabled: boolean) => ReachAPI.SetSkillEnabled(name, enabled),
  customizeSkill: (name: string) => ReachAPI.CustomizeSkill(name),
  // Settings › Channels (app_channels.go): polled while the section is open.
  channelsStatus: (): Promise<ChannelsStatus> => ChannelsAPI.Status() as Promise<unknown> as Promise<ChannelsStatus>,
  setTelegramToken: (token: string) => ChannelsAPI.SetTelegramToken(token),
  setTelegram: (enabled: boolean, groups: boolean, notifyIn: string) => ChannelsAPI.SetTelegram(enabled, groups, notifyIn),
  pairingCode: () => ChannelsAPI.PairingCode(),
  allowPeer: (id: string) => ChannelsAPI.AllowPeer(id),
  removePeer: (id: string) => ChannelsAPI.RemovePeer(id),
};

export type Api = typeof api;

/** A problem a binding's error lists: what went wrong and what to do about it. */
export interface Problem {
  text: Message;
  hint?: Message[];
}

/** What userError (app_memory.go) sends for an error worded by the catalog. */
interface CodedError {
  message: string;
  code?: string;
  args?: Record<string, string>;
  problems?: Problem[];
}

// userError sends a coded error as JSON text, since Wails' runtime rejects a call with
// new Error(value); a fake api rejects with the object itself.
function coded(err: unknown): CodedError | null {
  const text = err instanceof Error ? err.message : err;
  if (typeof text === 'string') {
    if (!text.startsWith('{"')) return null;
    try {
      const e = JSON.parse(text);
      return e && typeof e.message === 'string' && typeof e.code === 'string' ? e : null;
    } catch {
      return null;
    }
  }
  return text && typeof text === 'object' && 'message' in text ? (text as CodedError) : null;
}

/**
 * The installed models that can see pictures, when a send was refused because the chat's
 * model cannot (the backend's picture.noVision names them); [] for any other error.
 */
export function visionModels(err: unknown): string[] {
  const e = coded(err);
  if (e?.code !== 'picture.noVision') return [];
  return (e.args?.models ?? '').split(', ').filter(Boolean);
}

/** Error text from a rejected binding call, in the UI language when it carries a code. */
export function errText(err: unknown): string {
  // An error that says what went wrong as a catalog code is worded in the UI language;
  // one that lists its problems (every server of a pasted MCP block that is wrong) says
  // each on its own line with its hint.
  const e = coded(err);
  if (e) {
    if (e.problems?.length) return problemsText(e.problems, e.message);
    return tm(e.code ? { code: e.code, args: e.args } : null, e.message);
  }
  return err instanceof Error ? err.message : String(err);
}

// The English stands when this build cannot word every part.
function problemsText(problems: Problem[], english: string): string {
  const known = (m: Message) => tm(m) !== m.code;
  if (!problems.every((p) => known(p.text) && (p.hint ?? []).every(known))) return english;
  return problems
    .map((p) => {
      const text = tm(p.text);
      return p.hint?.length ? tm({ code: 'problem.withHint', args: { text, hint: p.hint.map((h) => tm(h)).join('; ') } }) : text;
    })
    .join('\n');
}
