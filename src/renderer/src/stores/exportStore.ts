/**
 * Exports of a run (trace .json.gz / .json, report md / csv / json). The service answers with the
 * file's bytes in base64 (web mode, the view downloads them) or where the desktop app saved it.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { ExportFormat, ExportResult } from '../../../shared/api';
import { errorText, isCancellation } from '../lib/errorText';
import { useApi } from './apiAccess';

export const EXPORT_CHOICES: readonly { format: ExportFormat; label: string; testid: string }[] = [
  { format: 'trace', label: 'Trace (.json.gz)', testid: 'export-trace' },
  { format: 'trace-json', label: 'Trace (.json)', testid: 'export-trace-json' },
  { format: 'md', label: 'Report (Markdown)', testid: 'export-report-md' },
  { format: 'csv', label: 'Report (CSV)', testid: 'export-report-csv' },
  { format: 'json', label: 'Report (JSON)', testid: 'export-report-json' },
];

export const useExportStore = defineStore('export', () => {
  const busy = ref<ExportFormat | null>(null);
  const last = shallowRef<ExportResult | null>(null);
  const error = ref<string | null>(null);

  /** resolves with the result, or null when it failed (error says why) or the dialog was cancelled */
  async function exportRun(runId: string, format: ExportFormat): Promise<ExportResult | null> {
    busy.value = format;
    error.value = null;
    try {
      const result = await useApi().exportRun(runId, format);
      last.value = result;
      return result;
    } catch (e) {
      if (!isCancellation(e)) error.value = errorText(e).message;
      return null;
    } finally {
      busy.value = null;
    }
  }

  return { busy, last, error, exportRun };
});
