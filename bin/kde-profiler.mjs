#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx kde-profiler` works from a checkout without a build.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/main/cli/main.ts');
const code = await runCli(process.argv.slice(2));
// exit once stdout has drained: a loaded GPU backend can hold the event loop open
process.stdout.write('', () => process.exit(code));
