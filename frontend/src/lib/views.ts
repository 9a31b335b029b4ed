// Navigation in one list each, so a feature adds a view or a sidebar tab with one line.
// Main views fill the window's right side; the chat view is the default. Sidebar tabs sit
// under the "New chat" button. Every component receives the AppCtx as its `app` prop.
import type { Component } from 'svelte';
import type { AppCtx } from './app.svelte';
import ModelsView from '../components/ModelsView.svelte';
import SettingsView from '../components/SettingsView.svelte';
import McpView from '../components/McpView.svelte';
import SkillsView from '../components/SkillsView.svelte';
import SessionList from '../components/SessionList.svelte';
import MemoryTab from '../components/MemoryTab.svelte';
import MemoryView from '../components/MemoryView.svelte';
import ActivityView from '../components/ActivityView.svelte';
import RemindersView from '../components/RemindersView.svelte';

export interface NavEntry {
  id: string;
  /** i18n key of the label */
  label: string;
  /** an SVG path in a 24-unit box */
  icon: string;
  component: Component<{ app: AppCtx }>;
  /** A main view opened from elsewhere (e.g. a sidebar tab), with no button of its own. */
  hidden?: boolean;
  /** How many things wait in the view for the user (a quiet count on its button). */
  badge?: (app: AppCtx) => number;
}

export const mainViews: NavEntry[] = [
  { id: 'reminders', label: 'nav.reminders', icon: 'M12 21a8 8 0 1 0 0-16 8 8 0 0 0 0 16z M12 9v4l2.5 2.5 M5 3L2 6 M19 3l3 3', component: RemindersView,
    badge: (app) => app.notices.count },
  { id: 'models', label: 'nav.models', icon: 'M12 3l8 4.5v9L12 21l-8-4.5v-9z M12 12l8-4.5 M12 12v9 M12 12L4 7.5', component: ModelsView },
  { id: 'activity', label: 'activity.nav', icon: 'M3 12h4l3-8 4 16 3-8h4', component: ActivityView },
  { id: 'mcp', label: 'nav.mcp', icon: 'M9 3v5 M15 3v5 M6 8h12v3a6 6 0 0 1-12 0z M12 17v4', component: McpView },
  { id: 'skills', label: 'nav.skills', icon: 'M5 4.5A1.5 1.5 0 0 1 6.5 3H19v15H6.5A1.5 1.5 0 0 0 5 19.5z M5 19.5A1.5 1.5 0 0 0 6.5 21H19v-3 M9 7h6', component: SkillsView },
  {
    id: 'settings',
    label: 'nav.settings',
    icon: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z M12 2v3 M12 19v3 M2 12h3 M19 12h3 M4.9 4.9l2.1 2.1 M17 17l2.1 2.1 M4.9 19.1L7 17 M17 7l2.1-2.1',
    component: SettingsView,
  },
  { id: 'memory', label: 'memory.files', icon: '', component: MemoryView, hidden: true },
];

export const sidebarTabs: NavEntry[] = [
  { id: 'sessions', label: 'sidebar.sessions', icon: 'M4 5h16v10H8l-4 4z', component: SessionList },
  { id: 'memory', label: 'memory.tab', icon: 'M6 3h8l4 4v14H6z M14 3v4h4', component: MemoryTab },
];
