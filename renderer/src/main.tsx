import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startUpEnded } from './lib/lazy-part';
import { useAppStore } from './store';
import './styles.css';

/** Longest the window shows index.html's frame while the core answers, before rendering without its answers. */
const FIRST_SCREEN_WAIT_MS = 400;

// Asked before React runs: the answers come while the modules evaluate, and the first render has them, so the
// window does not show "no model" and an off Send for a moment (docs/architecture.md §9).
const opened = useAppStore.getState().windowOpened();
void opened.finally(startUpEnded);

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// Rendered however the asking ends: a call that threw must not leave the window on its frame.
void Promise.race([opened, new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))]).finally(render);
