/**
 * The renderer's composition root: installs the ProfilerApi (preload or WebSocket, chosen by
 * api/), then mounts the app with Pinia. In web mode getApi() also takes the token out of the
 * address bar; it runs first, so the app reads its route from an address without the token.
 */
import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { getApi } from './api';
import { installApi } from './stores';
import './styles/theme.css';

installApi(getApi());
createApp(App).use(createPinia()).mount('#app');
