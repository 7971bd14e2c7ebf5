import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { api } from './api/connectApi';
import { loadHome } from './stores/homeStore';
import { followTheme } from './theme/followTheme';
import './theme.css';
import './styles.css';

followTheme();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void loadHome().then(() => api.rendererReady({}));
