import { mount } from 'svelte';
import './style.css';
import './view.css';
import App from './App.svelte';

// Svelte 5 mounts with mount(); the Wails template's `new App()` renders a blank window.
const app = mount(App, { target: document.getElementById('app')! });

export default app;
