/**
 * What the shell hears from outside the page: the desktop File menu's commands, and in web mode
 * the state of the WebSocket connection (for a banner while it is down).
 */
import { onBeforeUnmount, onMounted, ref } from 'vue';
import { getWsApi, onMenuCommand, type ConnectionState } from '../api';
import { useDataStore, useNavStore } from '../stores';

export function useMenuCommands(): void {
  const nav = useNavStore();
  const data = useDataStore();
  let off: () => void = () => undefined;
  onMounted(() => {
    off = onMenuCommand((c) => {
      if (c.command === 'open-data') {
        nav.go('data');
        void data.selectFile(c.path);
      } else if (c.command === 'open-run') {
        nav.go('runs');
      } else if (c.command === 'export') {
        nav.go('export');
      }
    });
  });
  onBeforeUnmount(() => off());
}

/** null on the desktop (IPC has no connection to lose) */
export function useConnectionState() {
  const state = ref<ConnectionState | null>(null);
  let off: () => void = () => undefined;
  onMounted(() => {
    const ws = getWsApi();
    if (!ws) return;
    state.value = ws.connectionState;
    off = ws.onConnectionState((s) => (state.value = s));
  });
  onBeforeUnmount(() => off());
  return state;
}
