import { Type } from '@sinclair/typebox';
import { invalid, type Validator } from '../../http/args.ts';
import { ApiError } from '../../http/errors.ts';
import { endpoint, type RouteDef } from '../../http/route.ts';
import { CSV_IMPORT_TYPES, type CsvImportType } from './columns.ts';
import { defaultCsvImportOptions, importCsv, type CsvImportDeps } from './csv-import.ts';
import { CsvImportError } from './import-error.ts';

interface CsvImportParams {
  type: CsvImportType;
  csv: string;
  dry_run?: boolean;
  skip_bad?: boolean;
  map?: Record<string, unknown>;
}

const isType: Validator = (v) =>
  CSV_IMPORT_TYPES.includes(v as CsvImportType) ? true : invalid(`type must be one of ${CSV_IMPORT_TYPES.join(', ')}.`);
const isMap: Validator = (v) =>
  Object.values(v as Record<string, unknown>).every((x) => typeof x === 'string')
    ? true
    : invalid('map must be an object of column names to field names.');

/** A refused file as the closed error set says: too large → 413 `csv_too_large`, anything else → 400 `csv_invalid`. */
export function csvErrorAnswer(err: CsvImportError): ApiError {
  const code = err.kind === 'too_large' ? 'csv_too_large' : 'csv_invalid';
  return new ApiError(code, err.message, err.problems.length > 0 ? { problems: err.problems } : {});
}

/**
 * `POST /wp-json/events-service/v1/import/csv` (administrators): a JSON body with the file's text in `csv`, the
 * `type`, and `dry_run`, `skip_bad` and `map` as the CLI's options (README, "CSV import").
 */
export function csvImportRoutes(
  deps: Omit<CsvImportDeps, 'caller' | 'now'> & { readonly afterWrite: () => void },
): RouteDef[] {
  return [
    {
      pattern: '/import/csv',
      endpoints: [
        endpoint<CsvImportParams>({
          methods: ['POST'],
          args: {
            schema: Type.Object({
              type: Type.String({ description: 'What the rows are: events, venues or organizers' }),
              csv: Type.String({ description: 'The CSV file, UTF-8 text with a header row' }),
              dry_run: Type.Optional(
                Type.Boolean({ description: 'Check every row and report; write nothing', default: false }),
              ),
              skip_bad: Type.Optional(
                Type.Boolean({ description: 'Import the good rows and report the bad ones', default: false }),
              ),
              map: Type.Optional(
                Type.Object({}, { additionalProperties: true, description: 'File column → plugin column name' }),
              ),
            }),
            validators: { type: isType, map: isMap },
          },
          permission: (ctx) => ctx.caller?.role === 'administrator',
          async handler(ctx, p) {
            const opts = {
              ...defaultCsvImportOptions,
              type: p.type,
              dryRun: p.dry_run === true,
              skipBad: p.skip_bad === true,
              map: (p.map ?? {}) as Record<string, string>,
            };
            try {
              const report = await importCsv(
                { ...deps, caller: ctx.caller!, now: ctx.now },
                Buffer.from(p.csv, 'utf8'),
                opts,
              );
              if (!report.dryRun && report.created > 0) deps.afterWrite();
              return { status: report.dryRun ? 200 : 201, body: report };
            } catch (err) {
              if (err instanceof CsvImportError) throw csvErrorAnswer(err);
              throw err;
            }
          },
        }),
      ],
    },
  ];
}
