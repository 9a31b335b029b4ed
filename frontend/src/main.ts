import { mount } from 'svelte';
import './style.css';
import './view.css';
import App from './App.svelte';
import type { PerfProbe } from './lib/stores/chat.svelte';

// Svelte 5 mounts with mount(); the Wails template's `new App()` renders a blank window.
// The streaming benchmark (e2e/bench-stream.mjs) installs a timing probe before load.
const probe = (window as unknown as { __hearthProbe?: PerfProbe }).__hearthProbe;
const app = mount(App, { target: document.getElementById('app')!, props: probe ? { probe } : {} });

export default app;
