#!/usr/bin/env node
// The bundle of the CLI when it is fresh, else the TypeScript sources through tsx (scripts/cli-launch.mjs).
import { launchCli } from '../../../scripts/cli-launch.mjs';

await launchCli(import.meta.url);
