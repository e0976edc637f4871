/**
 * A load handed to Locust and read back (docs/load.md "Locust"): the exported locustfile of a load as the form
 * sets it, and Locust's CSV output imported as a saved load run marked "Locust".
 */
import { z } from 'zod';
import { defineCall } from './define';
import { LoadStartInput, type LoadRecordSummary } from './load';
import { LoadShapeSchema } from '../load/shape';

/** Locust's CSV files are small (a line per entry, a line per second of history): 8 MB is hours of history. */
export const LOCUST_CSV_MAX_CHARS = 8 * 1024 * 1024;

const CsvText = z.string().max(LOCUST_CSV_MAX_CHARS);

export const LocustExportInput = LoadStartInput.extend({ shape: LoadShapeSchema.optional() });

export const LocustImportInput = z
  .object({
    /** PREFIX_stats.csv. */
    stats: CsvText.min(1),
    /** PREFIX_stats_history.csv. */
    history: CsvText.optional(),
    /** PREFIX_failures.csv. */
    failures: CsvText.optional(),
    /** The files' names, as the run's source in the list. */
    name: z.string().max(200).default('Locust CSV'),
  })
  .strict();

export const locustCalls = {
  'locust:export': defineCall<{ text: string; fileName: string }>()(LocustExportInput),
  'locust:import': defineCall<{ run: LoadRecordSummary }>()(LocustImportInput),
};
