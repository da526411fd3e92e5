import { Command } from 'commander';
import { buildCommand } from './build.ts';
import { createCliContext, type CliCommand } from './context.ts';
import { countCommand } from './count.ts';
import { searchCommand } from './search.ts';
import { collocationsCommand, ngramsCommand } from './analyses.ts';
import { frequenciesCommand } from './frequencies.ts';
import { keynessCommand } from './keyness.ts';
import { demoCorpusCommand } from './demo-corpus.ts';
import { workerCommand } from './worker.ts';
import { gatewayCommand } from './gateway.ts';
import { serveCommand } from './serve.ts';
import { demoCommand } from './demo.ts';
import { publishHubCommand } from './publish-hub.ts';
import { releaseCommand } from './release-assemble.ts';

/** Every `news` command; adding one is one line here. */
const COMMANDS: readonly CliCommand[] = [
  buildCommand,
  countCommand,
  searchCommand,
  ngramsCommand,
  collocationsCommand,
  frequenciesCommand,
  keynessCommand,
  demoCorpusCommand,
  workerCommand,
  gatewayCommand,
  serveCommand,
  demoCommand,
  publishHubCommand,
  releaseCommand,
];

const ctx = createCliContext();
const program = new Command('news').description('exact phrase search over crawled news').showHelpAfterError();
for (const register of COMMANDS) register(program, ctx);
await program.parseAsync(process.argv);
